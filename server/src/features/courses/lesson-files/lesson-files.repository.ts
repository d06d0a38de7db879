import type { LessonFileSlot } from '@common/courses';
import type { Collection, NewDoc, Store, StoredDoc } from '../../../store/store';

/** A private file of a lesson: its media or one of its downloads, kept under the lessons folder. */
export interface LessonFile extends StoredDoc {
  courseId: string;
  lessonId: string;
  /** The place it fills in its lesson. */
  slot: LessonFileSlot;
  /** What the owner called it (shown, and offered as the download's name). */
  name: string;
  /** The file's name in the lessons folder: server-made, never from the client. */
  storedName: string;
  size: number;
  mime: string;
}

/**
 * A lesson file as stored: its slot keeps the field's first name, `role`, as every document
 * written before holds it. This repository is the one place that says `role`.
 */
interface LessonFileDoc extends Omit<LessonFile, 'slot'> {
  role: LessonFileSlot;
}

const fromDoc = ({ role, ...file }: LessonFileDoc): LessonFile => ({ ...file, slot: role });
const toDoc = (file: NewDoc<LessonFile>): NewDoc<LessonFileDoc> => ({
  courseId: file.courseId,
  lessonId: file.lessonId,
  role: file.slot,
  name: file.name,
  storedName: file.storedName,
  size: file.size,
  mime: file.mime,
});

/** The only code that reads or writes the records of lesson files. */
export class LessonFilesRepository {
  private readonly files: Collection<LessonFileDoc>;

  constructor(store: Store) {
    this.files = store.collection<LessonFileDoc>('course_files');
  }

  async init(): Promise<void> {
    await this.files.ensureIndex({ field: 'lessonId' });
    await this.files.ensureIndex({ field: 'courseId' });
  }

  async find(id: string): Promise<LessonFile | null> {
    const doc = await this.files.findById(id);
    return doc && fromDoc(doc);
  }

  async insert(file: NewDoc<LessonFile>): Promise<LessonFile> {
    return fromDoc(await this.files.insertOne(toDoc(file)));
  }

  delete(id: string): Promise<boolean> {
    return this.files.deleteById(id);
  }

  async ofLesson(lessonId: string): Promise<LessonFile[]> {
    return (await this.files.find({ lessonId })).map(fromDoc);
  }

  async ofCourse(courseId: string): Promise<LessonFile[]> {
    return (await this.files.find({ courseId })).map(fromDoc);
  }
}

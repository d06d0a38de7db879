import type { Collection, NewDoc, Store, StoredDoc } from '../../../store/store';

/** A private file of a lesson: its media or one of its downloads, kept under the lessons folder. */
export interface LessonFileDoc extends StoredDoc {
  courseId: string;
  lessonId: string;
  role: 'media' | 'download';
  /** What the owner called it (shown, and offered as the download's name). */
  name: string;
  /** The file's name in the lessons folder: server-made, never from the client. */
  storedName: string;
  size: number;
  mime: string;
}

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

  find(id: string): Promise<LessonFileDoc | null> {
    return this.files.findById(id);
  }

  insert(file: NewDoc<LessonFileDoc>): Promise<LessonFileDoc> {
    return this.files.insertOne(file);
  }

  delete(id: string): Promise<boolean> {
    return this.files.deleteById(id);
  }

  ofLesson(lessonId: string): Promise<LessonFileDoc[]> {
    return this.files.find({ lessonId });
  }

  ofCourse(courseId: string): Promise<LessonFileDoc[]> {
    return this.files.find({ courseId });
  }
}

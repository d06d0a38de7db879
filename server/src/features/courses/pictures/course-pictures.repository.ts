import type { Collection, Store, StoredDoc } from '../../../store/store';

/** A picture kept with its course: its cover or a picture in one of its lessons' text. */
export interface CoursePictureDoc extends StoredDoc {
  courseId: string;
  /** Its name in the course's pictures folder: the content's hash, server-made. */
  storedName: string;
  /** The media library picture it was copied from (`/media/image/…`). */
  from: string;
}

/** The only code that reads or writes the records of course pictures. */
export class CoursePicturesRepository {
  private readonly pictures: Collection<CoursePictureDoc>;

  constructor(store: Store) {
    this.pictures = store.collection<CoursePictureDoc>('course_pictures');
  }

  async init(): Promise<void> {
    await this.pictures.ensureIndex({ field: 'courseId' });
  }

  /**
   * Records where a copy came from, once: the same picture copied again into the same course adds
   * nothing (one copy may come from several library files with the same content).
   */
  async remember(courseId: string, storedName: string, from: string): Promise<void> {
    if (await this.pictures.findOne({ courseId, storedName, from })) return;
    await this.pictures.insertOne({ courseId, storedName, from });
  }

  all(): Promise<CoursePictureDoc[]> {
    return this.pictures.find({});
  }

  async forgetCourse(courseId: string): Promise<void> {
    for (const picture of await this.pictures.find({ courseId })) await this.pictures.deleteById(picture._id);
  }
}

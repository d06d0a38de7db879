import { COURSE_PAGE_DATA_ID, type CoursePageData } from '@common/course-page-data';
import { useSyncExternalStore } from 'react';

let read = false;
let data: CoursePageData | null = null;

/** The visitor's view the server put into the page's HTML (features/courses/course-pages.ts). */
function injected(): CoursePageData | null {
  if (!read) {
    read = true;
    const element = document.getElementById(COURSE_PAGE_DATA_ID);
    try {
      data = element?.textContent ? (JSON.parse(element.textContent) as CoursePageData) : null;
    } catch {
      data = null;
    }
  }
  return data;
}

const noSubscription = () => () => {};

/**
 * The data the page arrived with. The page was pre-rendered without it, so while React takes the
 * page over the answer is null (the same markup), and the data follows at once.
 */
export function useInjectedPageData(): CoursePageData | null {
  return useSyncExternalStore(noSubscription, injected, () => null);
}

/**
 * The still gradient behind everything until slides arrive (and whenever there are none). The
 * page shows it at once; the slideshow, loaded later, starts from the same picture.
 */
export const BACKDROP = 'bg-[radial-gradient(ellipse_at_top,_#44403c_0%,_#1c1917_45%,_#0c0a09_100%)]';

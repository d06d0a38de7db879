/** Business constants, shared by the server and the client. */

export const COPYRIGHT_YEAR = 2025;

export const TOKEN_STORAGE_KEY = 'token';
export const MIN_PASSWORD_LENGTH = 6;
/** Long enough for any real password, short enough that hashing it cannot be used to burn CPU. */
export const MAX_PASSWORD_LENGTH = 200;

export const RESET_REDIRECT_DELAY_MS = 2000;
export const USER_SEARCH_DEBOUNCE_MS = 500;

export const MAX_UPLOAD_BYTES = 209_715_200;

/** The sessionStorage key the page-view beacon (client/public/beacon.js) keeps the visit's arrival under. */
export const ARRIVAL_KEY = 'arrival';

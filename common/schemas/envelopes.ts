import type { ErrorBody } from '../errors';

/*
 * The envelope of the API's answers, and the one list of the answers the spec shapes otherwise.
 *
 * The rule: a success is `{ success: true, ...the call's fields }` (one thing under `data`, or
 * named fields such as `config`, `stats`, `message`); a refusal is an `ErrorBody`
 * (`common/errors.ts`): `{ success: false, code, message, msg }` with a code of the closed list
 * and the status that code has there. Every route's answer is a type of `common/schemas/<feature>.ts`,
 * given to the route (`app.get<{ Reply: T }>`) and to the client's `api<T>()`.
 *
 * The exceptions, each a type below that its route's type is made of:
 *
 * | Type                 | Calls                                                        | How it differs, and why                                                                                  |
 * | -------------------- | ------------------------------------------------------------ | -------------------------------------------------------------------------------------------------------- |
 * | `ErrorBody`          | every refusal                                                | `msg` repeats `message`: the sign-in and registration screens read `msg`                                    |
 * | `TokenAnswer`        | POST /api/auth/register (201), POST /api/auth/login          | `{ token, msg }`, no `success`: the sign-in screens store the token and show `msg`                      |
 * | `MessageOnly`        | POST /api/auth/forgot-password, PUT /api/auth/reset-password/:token | `{ message }`, no `success`: the reset screens show the message as it is                     |
 * | `ListOnly<T>`        | GET /api/playlists                                           | the array itself: the spec's "list of playlists"                                                         |
 * | `RefusalWith<T>`     | POST /api/media/upload                                       | a refusal of every file carries `uploadedCount: 0, files: [], rejected` beside the error (the panel reads `uploadedCount`) |
 * | `RefusalWithError`   | POST /api/admin/mongodb/config                               | the refusal repeats `message` as `error`: the spec's panel reads `error`                                 |
 * | `RefusalWithError`   | /api/system/* (nginx)                                        | the same, and a refused form field is named in `field`                                                   |
 * | `Outcome`            | POST /api/admin/mongodb/test                                 | a failed connection test is a 200 with `success: false`: the test ran, the database did not answer        |
 * | `WebhookAnswer`      | POST /api/payments/webhook                                   | `{ received: true, … }`, no `success`: Stripe reads only the status, the body is for its dashboard        |
 * | `JsonFile<T>`        | GET /api/account/export                                      | the JSON document itself, as a download (no envelope)                                                    |
 * | `TextFile`           | GET /api/admin/users/export.csv, /api/admin/activity/export.csv | CSV, streamed as a download                                                                           |
 * | `TextFile`           | GET /api/slider/defaults/:file                               | an SVG drawing                                                                                           |
 * | `TextFile`           | GET /api/admin/figures/courses/:id/members.csv               | CSV, streamed as a download                                                                              |
 * | `TextFile`           | GET /robots.txt, /sitemap.xml, /sitemaps/:file               | plain text and XML for search engines, the sitemaps streamed                                             |
 * | `TextFile`           | GET /manifest.webmanifest                                    | the web manifest's JSON text itself (browsers read it, no envelope)                                      |
 * | `ImageFile`          | GET /site-icon/:file                                         | a PNG made from the site's icon                                                                          |
 * | `HtmlPage`           | GET, POST /api/mail/unsubscribe/:token                       | a page of its own: a mail's link opens it in any browser, without the web client                         |
 * | `NoContent`          | POST /api/visits                                             | 204: the beacon reads nothing, counted or not                                                            |
 * | (not JSON)           | GET /media/*                                                 | the file's bytes; 304, 416 and HEAD answers have no body (a missing file is an `ErrorBody` 404)            |
 * | (not the API)        | a page address while the web client is not built             | 503 in plain text, saying how to build it                                                                |
 * | (not HTTP's body)    | a stranger's request body that takes too long                | 408 with no body, written on the socket (`http/request-timeouts.ts`), as Node answers a malformed request |
 *
 * The /api/system answers also keep the spec's own shapes beside `success`: the status has
 * `running`, `state`, `mode` and `stats` at the top level (`NginxStatusResponse`).
 */

/** The usual success: one thing under `data`. */
export interface DataAnswer<T> {
  success: true;
  data: T;
}

/** The usual success of a change that has nothing to give back but what was done. */
export interface DoneAnswer {
  success: true;
  message: string;
}

/** Exception: sign-up and sign-in answer the token and a `msg`, without `success`. */
export interface TokenAnswer {
  token: string;
  msg: string;
}

/** Exception: the password reset calls answer only a `message`. */
export interface MessageOnly {
  message: string;
}

/** Exception: a list answered as the array itself. */
export type ListOnly<T> = T[];

/** Exception: a refusal carrying fields of the call's own beside the error body. */
export type RefusalWith<T extends object> = ErrorBody & T;

/** Exception: a refusal that repeats `message` as `error`, which the spec's panels read. */
export type RefusalWithError<T extends object = Record<never, never>> = RefusalWith<{ error: string } & T>;

/** Exception: a 200 whose `success` may be false (the call ran; what it tried did not work). */
export interface Outcome {
  success: boolean;
}

/** Exception: a download of a JSON document, without the envelope. */
export type JsonFile<T> = T;

/** Exception: a text download or image (CSV, SVG), whole or streamed. */
export type TextFile = string | AsyncIterable<string>;

/** Exception: a picture's bytes. */
export type ImageFile = Uint8Array;

/** Exception: a whole HTML page, made on the server. */
export type HtmlPage = string;

/** Exception: a 204, no body. */
export type NoContent = undefined;

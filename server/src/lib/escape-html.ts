// One escaping for the server and the client: the site's markup is made alike by both (common/site.ts).
export { escapeHtml } from '@common/escape-html';

/**
 * A transparent 1x1 GIF for a <picture> source that stands in where the picture is hidden (a hero picture on
 * phones): the browser picks it instead of the real file, so a hidden picture costs no download.
 */
export const NO_PICTURE = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

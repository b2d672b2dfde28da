/** The admin forms map validation issues with the same helper as the public forms. */
export { issuesToFieldErrors } from '../schemas/field-errors';

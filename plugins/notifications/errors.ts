/** The error codes the notifications plugin answers with (the `code` of an error body). */

/** 400: a posted setting is malformed (the field names it). */
export const CONFIG_INVALID = 'NOTIFICATIONS_CONFIG_INVALID';
/** 400: a destination's service filter names a process that is not enabled. */
export const SERVICE_UNKNOWN = 'NOTIFICATIONS_SERVICE_UNKNOWN';
/** 400: a test names a destination that does not exist or has no URL. */
export const DESTINATION_UNKNOWN = 'NOTIFICATIONS_DESTINATION_UNKNOWN';
/** 400: a send names a severity notifications do not carry. */
export const SEVERITY_UNSUPPORTED = 'NOTIFICATIONS_SEVERITY_UNSUPPORTED';
/** 400: a send matched no enabled destination with a URL. */
export const NO_DESTINATION = 'NOTIFICATIONS_NO_DESTINATION';
/** 503: the delivery database is locked by another writer; it is retried in the background. */
export const STORAGE_LOCKED = 'NOTIFICATIONS_STORAGE_LOCKED';

/** The error codes the sync plugin answers with (the `code` of an error body). */

/** 422: the `stackd.sync` slice, or the dashboard's `seerr_sync` update, is malformed. */
export const CONFIG_INVALID = 'SYNC_CONFIG_INVALID';
/** 422: the dashboard asked to change an option stackd does not offer (it always behaves one way). */
export const OPTION_UNSUPPORTED = 'SYNC_OPTION_UNSUPPORTED';

/** The error codes the ai plugin answers with (the `code` of an error body). */

/** 404: the process to diagnose is not in the configuration. */
export const PROCESS_NOT_FOUND = 'PROCESS_NOT_FOUND';
/** 422: a process diagnosis names no process. */
export const PROCESS_NAME_REQUIRED = 'AI_PROCESS_NAME_REQUIRED';
/** 404: a follow-up names a session that expired or never existed. */
export const SESSION_NOT_FOUND = 'AI_SESSION_NOT_FOUND';
/** 404 (422 for `active_profile_id` in the settings): no saved profile has that id. */
export const PROFILE_NOT_FOUND = 'AI_PROFILE_NOT_FOUND';
/** 422: a profile name is blank or too long. */
export const PROFILE_NAME_INVALID = 'AI_PROFILE_NAME_INVALID';
/** 422: another profile already has that name. */
export const PROFILE_NAME_TAKEN = 'AI_PROFILE_NAME_TAKEN';
/** 422: the profile limit is reached. */
export const PROFILES_FULL = 'AI_PROFILES_FULL';
/** 422: the provider kind is not one stackd talks to. */
export const PROVIDER_UNKNOWN = 'AI_PROVIDER_UNKNOWN';
/** 400: the model is past its provider's shutdown date. */
export const MODEL_RETIRED = 'AI_MODEL_RETIRED';
/** 400: the model cannot return diagnostic text. */
export const MODEL_UNSUPPORTED = 'AI_MODEL_UNSUPPORTED';
/** 502: the provider could not be reached or answered an error. */
export const PROVIDER_UNREACHABLE = 'AI_PROVIDER_UNREACHABLE';
/** 502: the provider's answer could not be read. */
export const PROVIDER_MALFORMED = 'AI_PROVIDER_MALFORMED';
/** 504: the provider did not answer within the profile's timeout. */
export const PROVIDER_TIMEOUT = 'AI_PROVIDER_TIMEOUT';
/** The client went away before the provider answered. */
export const REQUEST_CANCELLED = 'AI_REQUEST_CANCELLED';

/**
 * The symlinks plugin's error codes: the `code` of the error bodies it answers (and, for symlinks,
 * of failed jobs). One constant each, so every code is spelled once and a search finds every
 * place that answers it. `as const` keeps each one's literal type inside object literals (a typed
 * `code` field).
 */

export const PROCESS_NOT_FOUND = 'PROCESS_NOT_FOUND' as const;
export const STORAGE_FULL = 'STORAGE_FULL' as const;
export const STORAGE_IO_ERROR = 'STORAGE_IO_ERROR' as const;
export const STORAGE_UNWRITABLE = 'STORAGE_UNWRITABLE' as const;
export const SYMLINK_JOB_NOT_FOUND = 'SYMLINK_JOB_NOT_FOUND' as const;
export const SYMLINK_MANIFEST_INVALID = 'SYMLINK_MANIFEST_INVALID' as const;
export const SYMLINK_MANIFEST_NOT_FOUND = 'SYMLINK_MANIFEST_NOT_FOUND' as const;
export const SYMLINK_MANIFEST_UNREADABLE = 'SYMLINK_MANIFEST_UNREADABLE' as const;
export const SYMLINK_NO_RULES = 'SYMLINK_NO_RULES' as const;
export const SYMLINK_PATH_INVALID = 'SYMLINK_PATH_INVALID' as const;
export const SYMLINK_PATH_OUTSIDE = 'SYMLINK_PATH_OUTSIDE' as const;
export const SYMLINK_PATH_REQUIRED = 'SYMLINK_PATH_REQUIRED' as const;
export const SYMLINK_PRESET_UNKNOWN = 'SYMLINK_PRESET_UNKNOWN' as const;
export const SYMLINK_PROCESS_NAME_REQUIRED = 'SYMLINK_PROCESS_NAME_REQUIRED' as const;
export const SYMLINK_ROOT_INVALID = 'SYMLINK_ROOT_INVALID' as const;
export const SYMLINK_ROOT_NOT_ALLOWED = 'SYMLINK_ROOT_NOT_ALLOWED' as const;

/** The raw sync state and its timestamps. */
export interface SubordinateLink {
  id: number;
  status: number;
  synced_at: string;
}
export interface TrackedRequest {
  primary_id: number;
  subordinates: Record<string, SubordinateLink>;
}
export interface FailedRecord {
  failed_at: string;
  error: string;
  media_type: string;
  tmdb_id: number;
}
export interface SyncState {
  last_poll_ts: string | null;
  requests: Record<string, TrackedRequest>;
  failed: Record<string, FailedRecord>;
}

export const emptyState = (): SyncState => ({ last_poll_ts: null, requests: {}, failed: {} });

export const failedKey = (fingerprint: string, subordinate: string) =>
  `${fingerprint}||${subordinate}`;

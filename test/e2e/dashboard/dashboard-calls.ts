/**
 * The calls DUMB's dashboard (dmbdb 1.88) makes to stackd's plugins, in our words: method, path
 * (as it reaches stackd — the dashboard's server strips `/api`, stackd answers both), what it
 * sends, and the fields it reads. Written from reading its `services/`, `stores/` and `pages/`.
 * Seerr, Decypharr and Demo Worker are processes of the contract stack; `{library}` is its
 * symlink library folder. The graph's optional `core_services`/`processes` arrays (used when
 * present, else fetched from /process/core-services and /process/processes) are not required. Calls behind a capability stackd
 * reports false (media protection, rclone optimizer, migrations, self-update, Authelia/OIDC,
 * PostgreSQL metrics history) are listed in the table of docs/dumb-frontend.md, not here.
 */
export interface DashboardCall {
  /** The dashboard page or part that makes the call. */
  readonly page: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
  /** The status the dashboard handles as success. */
  readonly status: number;
  /** Dot paths it reads (`a.b`; `a[]` is an array whose first item is checked for the rest). */
  readonly reads: readonly string[];
}

export const DASHBOARD_CALLS: readonly DashboardCall[] = [
  // Sign-in and the app shell
  {
    page: 'shell',
    method: 'GET',
    path: '/api/auth/status',
    status: 200,
    reads: ['enabled', 'has_users'],
  },
  {
    page: 'shell',
    method: 'GET',
    path: '/api/config/onboarding-status',
    status: 200,
    reads: ['needs_onboarding'],
  },
  {
    page: 'shell',
    method: 'GET',
    path: '/api/process/capabilities',
    status: 200,
    reads: [
      'symlink_repair',
      'seerr_sync',
      'notifications',
      'ai_provider_profiles',
      'ai_diagnostics',
      'startup_lifecycle',
      'runtime_api_log_level',
      'metrics_history_storage',
      'metrics_filesystem_selection',
      'metrics_network_interface_selection',
    ],
  },
  {
    page: 'shell',
    method: 'GET',
    path: '/api/process/startup-status',
    status: 200,
    reads: ['phase', 'terminal', 'failures'],
  },
  {
    page: 'shell',
    method: 'GET',
    path: '/api/process/update-notices',
    status: 200,
    reads: ['available', 'info', 'applied'],
  },
  { page: 'shell', method: 'GET', path: '/api/health', status: 200, reads: ['status'] },
  // Service dashboard
  {
    page: 'dashboard',
    method: 'GET',
    path: '/api/process/processes',
    status: 200,
    reads: ['processes[].process_name', 'processes[].config_key', 'processes[].enabled'],
  },
  {
    page: 'dashboard',
    method: 'GET',
    path: '/api/process/dependency-graph?process_name=Seerr',
    status: 200,
    reads: [
      'scope',
      'nodes',
      'edges',
      'parallel_groups',
      'dependency_truth_table',
      'statuses',
      'updated_at',
    ],
  },
  {
    page: 'dashboard',
    method: 'GET',
    path: '/api/process/core-services',
    status: 200,
    reads: ['core_services[].name', 'core_services[].key'],
  },
  // A service page
  {
    page: 'service',
    method: 'GET',
    path: '/api/process/service-status?process_name=Seerr&include_health=true',
    status: 200,
    reads: ['status', 'health_status', 'health_reason', 'health_details'],
  },
  {
    page: 'service',
    method: 'POST',
    path: '/api/config/service-config',
    body: { service_name: 'Seerr' },
    status: 200,
    reads: ['config', 'config_format'],
  },
  {
    page: 'service',
    method: 'POST',
    path: '/api/config/process-config/schema',
    body: { process_name: 'Seerr' },
    status: 200,
    reads: [],
  },
  {
    page: 'service',
    method: 'GET',
    path: '/api/config/service-ui',
    status: 200,
    reads: ['enabled', 'services'],
  },
  {
    page: 'service',
    method: 'GET',
    path: '/api/logs?process_name=Seerr',
    status: 200,
    reads: ['process_name', 'chunk', 'cursor'],
  },
  { page: 'service', method: 'GET', path: '/api/config/', status: 200, reads: ['stackd'] },
  // Real-Time Logs: the project's own log
  {
    page: 'realtime-logs',
    method: 'GET',
    path: '/api/logs?process_name=DMB',
    status: 200,
    reads: ['process_name', 'chunk'],
  },
  // Metrics
  {
    page: 'metrics',
    method: 'GET',
    path: '/api/metrics',
    status: 200,
    reads: [
      'timestamp',
      'system.cpu_percent',
      'system.cpu_count',
      'system.mem.total',
      'system.mem.used',
      'system.mem.percent',
      'system.swap.used',
      'system.disk.percent',
      'system.filesystems[].mount_point',
      'system.filesystems[].percent',
      'system.net_io.sent_bytes',
      'system.net_io.recv_bytes',
      'system.network_interfaces',
      'system.load_avg',
      'dumb_managed[].name',
      'dumb_managed[].pid',
      'dumb_managed[].cpu_percent',
      'dumb_managed[].rss',
      'external',
    ],
  },
  {
    page: 'metrics',
    method: 'GET',
    path: '/api/metrics/history_series?since=0&limit=5000&max_points=600&bucket_seconds=5',
    status: 200,
    reads: [
      'items',
      'timestamps',
      'series.cpu',
      'series.mem',
      'series.disk',
      'series.inode',
      'series.net_sent_rate',
      'series.net_recv_rate',
      'series.disk_read_rate',
      'series.disk_write_rate',
      'stats',
      'truncated',
      'bucket_seconds',
    ],
  },
  {
    page: 'metrics settings',
    method: 'GET',
    path: '/api/metrics/filesystems',
    status: 200,
    reads: ['candidates[].path', 'candidates[].fs_type', 'candidates[].percent'],
  },
  {
    page: 'metrics settings',
    method: 'GET',
    path: '/api/metrics/network-interfaces',
    status: 200,
    reads: ['candidates[].name', 'candidates[].is_up'],
  },
  {
    page: 'metrics settings',
    method: 'GET',
    path: '/api/metrics/history/storage?probe_postgresql=false',
    status: 200,
    reads: [
      'active_provider',
      'configured_provider',
      'fallback_active',
      'sqlite.samples',
      'sqlite.file_bytes',
      'legacy_jsonl.files',
      'legacy_jsonl.bytes',
    ],
  },
  {
    page: 'metrics settings',
    method: 'GET',
    path: '/api/config',
    status: 200,
    reads: [
      'dumb.metrics.filesystem_paths',
      'dumb.metrics.network_interfaces',
      'dumb.metrics.history_enabled',
      'dumb.metrics.storage.provider',
      'dumb.metrics.database_health',
    ],
  },
  {
    page: 'metrics settings',
    method: 'POST',
    path: '/api/metrics/history/migrate?force=true',
    status: 200,
    reads: ['completed', 'samples', 'files', 'skipped'],
  },
  // The stackd API service page
  {
    page: 'service',
    method: 'GET',
    path: '/api/process/runtime-log-level',
    status: 200,
    reads: ['configured_level', 'effective_level', 'override_active', 'resets_on_restart'],
  },
  // Symlink panel (symlink services)
  {
    page: 'symlinks',
    method: 'GET',
    path: '/api/process/symlink-manifest-files',
    status: 200,
    reads: ['directory', 'files'],
  },
  {
    page: 'symlinks',
    method: 'GET',
    path: '/api/process/symlink-backup-manifests?process_name=Decypharr',
    status: 200,
    reads: ['manifests', 'count'],
  },
  {
    page: 'symlinks',
    method: 'GET',
    path: '/api/process/symlink-job-latest?process_name=Decypharr',
    status: 200,
    reads: [],
  },
  {
    page: 'symlinks',
    method: 'POST',
    path: '/api/process/symlink-repair',
    body: {
      dry_run: true,
      include_broken: false,
      roots: ['{library}'],
      presets: ['decypharr_beta_consolidated'],
    },
    status: 200,
    reads: ['dry_run', 'changes', 'errors'],
  },
  // Request sync panel (the `seerr` service)
  {
    page: 'request-sync',
    method: 'GET',
    path: '/api/seerr-sync/status',
    status: 200,
    reads: ['enabled', 'status'],
  },
  {
    page: 'request-sync',
    method: 'GET',
    path: '/api/seerr-sync/failed',
    status: 200,
    reads: ['count', 'failed_requests'],
  },
  {
    page: 'request-sync',
    method: 'GET',
    path: '/api/seerr-sync/state',
    status: 200,
    reads: ['requests', 'failed'],
  },
  {
    page: 'request-sync',
    method: 'DELETE',
    path: '/api/seerr-sync/failed',
    status: 200,
    reads: ['cleared'],
  },
  // Settings: notifications
  {
    page: 'settings',
    method: 'GET',
    path: '/api/notifications/config',
    status: 200,
    reads: ['enabled', 'destinations'],
  },
  {
    page: 'settings',
    method: 'GET',
    path: '/api/notifications/events',
    status: 200,
    reads: ['event_types'],
  },
  {
    page: 'settings',
    method: 'GET',
    path: '/api/notifications/history',
    status: 200,
    reads: ['items'],
  },
  {
    page: 'settings',
    method: 'GET',
    path: '/api/auth/users',
    status: 200,
    reads: ['users[].username'],
  },
  // AI page
  {
    page: 'ai',
    method: 'GET',
    path: '/api/ai/settings',
    status: 200,
    reads: ['enabled', 'provider', 'model', 'profiles', 'active_profile_id'],
  },
  { page: 'ai', method: 'GET', path: '/api/ai/presets', status: 200, reads: ['service', 'stack'] },
  {
    page: 'ai',
    method: 'POST',
    path: '/api/ai/diagnose',
    body: { process_name: 'Seerr', dry_run: true },
    status: 200,
    reads: ['enabled', 'analysis', 'bundle', 'dry_run', 'session_id'],
  },
  {
    page: 'ai',
    method: 'POST',
    path: '/api/ai/diagnose-stack',
    body: { dry_run: true },
    status: 200,
    reads: ['bundle', 'dry_run'],
  },
];

/** The WebSocket messages it parses. */
export const DASHBOARD_STREAMS = {
  logs: 'GET /ws/logs (no filter): text frames of lines `<timestamp> - <LEVEL> - <Process> subprocess: <message>`; {"type":"ping"} → text "pong"',
  metrics:
    'GET /ws/metrics?interval=2&history=false&bootstrap=true&history_points=600&history_bucket=5: first {type:"bootstrap", snapshot, items, series, timestamps, truncated, stats, bucket_seconds}, then {type:"snapshot", data}',
  status: 'GET /ws/status: {type:"status", running:[...]} frames',
} as const;

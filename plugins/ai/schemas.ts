/** Wire shapes of the AI diagnostics routes. */
import { Type } from '../../sdk/index.js';

const providerFields = {
  provider: Type.Optional(Type.String({ description: 'Provider kind (or alias)' })),
  base_url: Type.Optional(Type.String({ description: 'Provider base URL' })),
  model: Type.Optional(Type.String()),
  timeout_sec: Type.Optional(Type.Number({ description: 'Clamped to 5–300 s' })),
  temperature: Type.Optional(Type.Number()),
  api_key: Type.Optional(Type.String({ description: 'Write-only; blank keeps the stored key' })),
};

export const PublicProfile = Type.Object({
  id: Type.String(),
  name: Type.String(),
  provider: Type.String(),
  base_url: Type.String(),
  model: Type.String(),
  timeout_sec: Type.Number(),
  temperature: Type.Number(),
  api_key_configured: Type.Boolean(),
});

export const PublicSettings = Type.Object({
  enabled: Type.Boolean(),
  provider: Type.String(),
  base_url: Type.String(),
  model: Type.String(),
  timeout_sec: Type.Number(),
  temperature: Type.Number(),
  api_key_configured: Type.Boolean(),
  active_profile_id: Type.String(),
  profiles: Type.Array(PublicProfile),
});

export const SettingsBody = Type.Object({
  ...providerFields,
  enabled: Type.Optional(Type.Boolean()),
  active_profile_id: Type.Optional(Type.String()),
});

export const ProfileBody = Type.Object({
  ...providerFields,
  id: Type.Optional(Type.String()),
  name: Type.String({ maxLength: 80 }),
});

export const ProfileParams = Type.Object({ profile_id: Type.String() });

export const ProviderBody = Type.Object(providerFields);

const Usage = Type.Union([
  Type.Object({
    prompt_tokens: Type.Number(),
    completion_tokens: Type.Number(),
    total_tokens: Type.Number(),
  }),
  Type.Null(),
]);

export const TestResponse = Type.Object({
  ok: Type.Boolean(),
  provider: Type.String(),
  model: Type.String(),
  response: Type.String(),
  usage: Usage,
});

const ModelLifecycle = Type.Object(
  {
    model: Type.String(),
    status: Type.Union([Type.Literal('retired'), Type.Literal('deprecated')]),
    shutdown_date: Type.String({ description: 'YYYY-MM-DD' }),
    replacement: Type.String(),
    source_url: Type.String(),
    provider: Type.String(),
  },
  { description: 'Present for models of the native kinds with a published shutdown date' },
);
const ModelCompatibility = Type.Object(
  {
    status: Type.Union([Type.Literal('supported'), Type.Literal('unsupported')]),
    api_surface: Type.String(),
    reason: Type.String(),
  },
  { description: 'Present for the native kinds: whether the model can answer a diagnosis' },
);

export const ModelsResponse = Type.Object({
  provider: Type.String(),
  models: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      lifecycle: Type.Optional(ModelLifecycle),
      compatibility: Type.Optional(ModelCompatibility),
    }),
  ),
});

const bundleFlags = {
  question: Type.Optional(Type.String()),
  dry_run: Type.Optional(Type.Boolean()),
  include_logs: Type.Optional(Type.Boolean()),
  include_service_config: Type.Optional(Type.Boolean()),
  include_dependency_graph: Type.Optional(Type.Boolean()),
  include_docs_context: Type.Optional(Type.Boolean()),
  include_metrics: Type.Optional(Type.Boolean()),
  include_change_history: Type.Optional(Type.Boolean()),
  include_native_diagnostics: Type.Optional(Type.Boolean()),
  max_log_chars: Type.Optional(Type.Integer({ minimum: 0 })),
  window_hours: Type.Optional(Type.Number()),
  comparison: Type.Optional(Type.String()),
  deep_log_scan: Type.Optional(Type.Boolean()),
  max_log_scan_mb: Type.Optional(Type.Integer({ minimum: 1, maximum: 512 })),
};

export const DiagnoseBody = Type.Object({ ...bundleFlags, process_name: Type.String() });
export const DiagnoseStackBody = Type.Object({
  ...bundleFlags,
  include_process_list: Type.Optional(Type.Boolean()),
  max_docs_chars: Type.Optional(Type.Integer({ minimum: 0 })),
});

export const DiagnoseResponse = Type.Object({
  enabled: Type.Boolean(),
  provider: Type.String(),
  model: Type.String(),
  analysis: Type.String(),
  bundle: Type.Record(Type.String(), Type.Unknown()),
  usage: Usage,
  dry_run: Type.Boolean(),
  session_id: Type.String(),
});

export const FollowUpBody = Type.Object({ session_id: Type.String(), question: Type.String() });
export const FollowUpResponse = Type.Object({
  analysis: Type.String(),
  usage: Usage,
  provider: Type.String(),
  model: Type.String(),
  session_id: Type.String(),
});

const Preset = Type.Object({ id: Type.String(), label: Type.String(), question: Type.String() });
export const PresetsResponse = Type.Object({
  service: Type.Array(Preset),
  stack: Type.Array(Preset),
});

/** The onboarding plugin's config slice (`stackd.onboarding`). */
import { Type, type Static } from '../../sdk/index.js';

/** The plugin's config schema. */
export const OnboardingConfig = Type.Object({
  catalog_file: Type.String({
    default: '',
    description:
      'A service catalog file ({"services": [...]}) whose entries add to or replace the shipped ' +
      'ones by key (relative paths → data dir). Read at start.',
  }),
  service_ui_enabled: Type.Boolean({
    default: false,
    description:
      'Service UIs reverse proxy at /service/ui/<key>/ (POST /config/service-ui changes and saves it).',
  }),
});
/** Type of {@link OnboardingConfig}. */
export type OnboardingConfig = Static<typeof OnboardingConfig>;

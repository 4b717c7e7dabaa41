import test from 'ava';
import {
  serviceUiEnabled,
  serviceUis,
} from '../../../../plugins/onboarding/service-ui/service-ui-map.js';

test('enabled processes with a port are listed with their key; the API and disabled ones are not', (t) => {
  const document = {
    stackd: {
      api_service: { process_name: 'stackd API', port: 8000 },
      supervisor: { service_ui_enabled: true },
    },
    web: { process_name: 'Web', enabled: true, port: 8081, host: '0.0.0.0' },
    off: { process_name: 'Off', enabled: false, port: 8082 },
    worker: { process_name: 'Worker', enabled: true },
    sonarr: {
      instances: {
        'My Anime': { process_name: 'Sonarr Anime', enabled: true, port: 8990, host: '::1' },
      },
    },
  };
  t.deepEqual(serviceUis(document), [
    {
      key: 'web',
      name: 'Web',
      port: 8081,
      path: '/service/ui/web',
      origin: 'http://127.0.0.1:8081',
    },
    {
      key: 'sonarr_my_anime',
      name: 'Sonarr Anime',
      port: 8990,
      path: '/service/ui/sonarr_my_anime',
      origin: 'http://[::1]:8990',
    },
  ]);
  t.true(serviceUiEnabled(document));
  t.false(serviceUiEnabled({ stackd: {} }));
});

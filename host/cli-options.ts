/** Command-line options and environment of CONTRACT.md. */

/** Parsed options; undefined means "not given" (the config file or defaults decide). */
export interface CliOptions {
  readonly configPath: string | undefined;
  readonly dataDir: string;
  readonly host: string | undefined;
  readonly port: number | undefined;
  readonly plugins: readonly string[] | undefined;
  readonly help: boolean;
  readonly version: boolean;
}

/** Usage text for `--help`. */
export const USAGE = `Usage: stackd [options]

  --config FILE     process configuration (JSON)      env STACKD_CONFIG
  --data-dir DIR    where logs, databases, state go   env STACKD_DATA_DIR   default ./data
  --host H          listen address                    env STACKD_HOST       default api_service.host, else 127.0.0.1
  --port P          listen port (0 = any free port)   env STACKD_PORT       default api_service.port, else 8000
  --plugins a,b     plugins to load (names or paths)  env STACKD_PLUGINS    default all built-in plugins
                    (+./mine.js,+other adds to the built-in plugins)
  --help            this text
  --version         print the version
`;

const VALUE_OPTIONS = new Set(['--config', '--data-dir', '--host', '--port', '--plugins']);

/** Parse argv (without node and script) and the environment; throws on bad input. */
export function parseCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions {
  const values = new Map<string, string>();
  let help = false;
  let version = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (arg === '--version' || arg === '-v') {
      version = true;
      continue;
    }
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (!VALUE_OPTIONS.has(name)) throw new Error(`unknown option '${arg}' (see --help)`);
    const value = inline ?? argv[++index];
    if (value === undefined) throw new Error(`option ${name} needs a value`);
    values.set(name, value);
  }
  const pick = (option: string, variable: string): string | undefined =>
    values.get(option) ?? nonEmpty(env[variable]);
  const portText = pick('--port', 'STACKD_PORT');
  const pluginsText = pick('--plugins', 'STACKD_PLUGINS');
  return {
    configPath: pick('--config', 'STACKD_CONFIG'),
    dataDir: pick('--data-dir', 'STACKD_DATA_DIR') ?? './data',
    host: pick('--host', 'STACKD_HOST'),
    port: portText === undefined ? undefined : parsePort(portText),
    plugins: pluginsText === undefined ? undefined : splitList(pluginsText),
    help,
    version,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid port '${text}' (0-65535)`);
  return port;
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

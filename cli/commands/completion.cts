/**
 * `stackd completion bash|zsh|fish`: a script to source. Subcommands and options complete from
 * the script; process names are asked of the running host (`stackd __complete processes`, which
 * prints nothing when the host cannot be reached, so a shell never hangs or prints errors).
 */
import type { ClientContext } from '../context.cjs';
import { CliError, EXIT } from '../errors.cjs';
import { listProcesses } from '../processes.cjs';
import { CLIENT_COMMANDS, NAME_COMMANDS } from '../command-names.cjs';

const COMMANDS = CLIENT_COMMANDS;

const BASH = `# stackd completion for bash: source <(stackd completion bash)
_stackd() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmd=\${COMP_WORDS[1]}
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${COMMANDS.join(' ')}" -- "$cur")); return
  fi
  case "$cmd" in
    ${NAME_COMMANDS.join('|')})
      if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "--all --no-wait --json --watch --follow --lines --since --url --token --help" -- "$cur"))
      else
        # Names may hold spaces ("Demo Web"): match on the word as typed without its quoting,
        # and insert each name quoted (Demo\\ Web) so it stays one argument.
        local typed=\${cur//\\\\/} name
        typed=\${typed#[\\"\\']}
        COMPREPLY=()
        while IFS= read -r name; do
          [[ $name == "$typed"* ]] && COMPREPLY+=("$(printf '%q' "$name")")
        done < <(stackd __complete processes 2>/dev/null)
      fi ;;
    config) COMPREPLY=($(compgen -W "get set edit history rollback --persist --dry-run --json" -- "$cur")) ;;
    users) COMPREPLY=($(compgen -W "list add disable enable" -- "$cur")) ;;
    completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")) ;;
    graph) COMPREPLY=($(compgen -W "--dot --all" -- "$cur")) ;;
  esac
}
complete -F _stackd stackd
`;

const ZSH = `#compdef stackd
# stackd completion for zsh: source <(stackd completion zsh)
_stackd() {
  if (( CURRENT == 2 )); then
    compadd -- ${COMMANDS.join(' ')}; return
  fi
  case $words[2] in
    ${NAME_COMMANDS.join('|')})
      if [[ $PREFIX == -* ]]; then
        compadd -- --all --no-wait --json --watch --follow --lines --since --url --token --help
      else
        local -a names; names=("\${(@f)$(stackd __complete processes 2>/dev/null)}")
        compadd -a names
      fi ;;
    config) compadd -- get set edit history rollback --persist --dry-run --json ;;
    users) compadd -- list add disable enable ;;
    completion) compadd -- bash zsh fish ;;
    graph) compadd -- --dot --all ;;
  esac
}
compdef _stackd stackd
`;

const FISH = `# stackd completion for fish: stackd completion fish | source
complete -c stackd -f
complete -c stackd -n '__fish_use_subcommand' -a '${COMMANDS.join(' ')}'
complete -c stackd -n '__fish_seen_subcommand_from ${NAME_COMMANDS.join(' ')}' -a '(stackd __complete processes 2>/dev/null)'
complete -c stackd -n '__fish_seen_subcommand_from ${NAME_COMMANDS.join(' ')}' -l all -l no-wait -l json -l watch -l follow -l lines -l since
complete -c stackd -n '__fish_seen_subcommand_from config' -a 'get set edit history rollback'
complete -c stackd -n '__fish_seen_subcommand_from config' -l persist -l dry-run -l json
complete -c stackd -n '__fish_seen_subcommand_from users' -a 'list add disable enable'
complete -c stackd -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'
complete -c stackd -n '__fish_seen_subcommand_from graph' -l dot -l all
complete -c stackd -l url -r -d 'host URL'
complete -c stackd -l token -r -d 'access token'
`;

const SCRIPTS: Record<string, string> = { bash: BASH, zsh: ZSH, fish: FISH };

/** Run `completion SHELL`. */
export function completion(context: ClientContext, shell: string): void {
  const script = SCRIPTS[shell];
  if (script === undefined)
    throw new CliError(`no completion for '${shell}': use bash, zsh or fish`, EXIT.usage);
  context.out(script);
}

/** Run `__complete processes`: the names, one a line; nothing at all on any failure. */
export async function completeProcesses(context: ClientContext): Promise<void> {
  try {
    const entries = await listProcesses(context.api);
    context.out(entries.map((entry) => `${entry.process_name}\n`).join(''));
  } catch {
    // Completion must stay silent.
  }
}

/** `completion bash|zsh|fish`: shell completion scripts generated from the command tree itself. */
import type { Command } from "commander"
import { action, oneOf } from "../Action.js"

/** Every command path (`""`, `links`, `links create`, ...) with the words that may follow it. */
export const completionTable = (
  program: Command
): ReadonlyArray<readonly [string, ReadonlyArray<string>]> => {
  const out: Array<readonly [string, ReadonlyArray<string>]> = []
  const globals = program.options.map((option) => option.long).filter((name): name is string => !!name)
  const walk = (command: Command, path: string, inherited: ReadonlyArray<string>) => {
    const own = command.options.map((option) => option.long).filter((name): name is string => !!name)
    const options = [...new Set([...inherited, ...own, "--help"])]
    const subcommands = command.commands.map((sub) => sub.name())
    out.push([path, [...subcommands, ...options]])
    for (const sub of command.commands) walk(sub, path === "" ? sub.name() : `${path} ${sub.name()}`, options)
  }
  walk(program, "", globals)
  return out
}

const caseTable = (table: ReadonlyArray<readonly [string, ReadonlyArray<string>]>) =>
  table.map(([path, words]) => `    "${path}") echo "${words.join(" ")}" ;;`).join("\n")

export const bashScript = (program: Command) => `# switch completion for bash. Install:
#   switch completion bash > ~/.local/share/bash-completion/completions/switch
# or add to ~/.bashrc:  source <(switch completion bash)
_switch_words() {
  case "$1" in
${caseTable(completionTable(program))}
  esac
}
_switch() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" next w i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    next="\${cmdpath:+$cmdpath }$w"
    [[ -n "$(_switch_words "$next")" ]] && cmdpath="$next"
  done
  COMPREPLY=($(compgen -W "$(_switch_words "$cmdpath")" -- "$cur"))
}
complete -o default -F _switch switch
`

export const zshScript = (program: Command) => `#compdef switch
# switch completion for zsh. Install:
#   switch completion zsh > "\${fpath[1]}/_switch"
# or add to ~/.zshrc:  source <(switch completion zsh)
_switch_words() {
  case "$1" in
${caseTable(completionTable(program))}
  esac
}
_switch() {
  local cmdpath="" next w i
  for ((i = 2; i < CURRENT; i++)); do
    w="\${words[i]}"
    [[ "$w" == -* ]] && continue
    next="\${cmdpath:+$cmdpath }$w"
    [[ -n "$(_switch_words "$next")" ]] && cmdpath="$next"
  done
  local -a candidates
  candidates=(\${=$(_switch_words "$cmdpath")})
  compadd -- $candidates
  _files
}
if (( $+functions[compdef] )); then compdef _switch switch; fi
`

export const fishScript = (program: Command) => `# switch completion for fish. Install:
#   switch completion fish > ~/.config/fish/completions/switch.fish
# or run:  switch completion fish | source
function __switch_words
  switch "$argv[1]"
${completionTable(program)
  .map(([path, words]) => `    case "${path}"\n      echo "${words.join(" ")}"`)
  .join("\n")}
  end
end
function __switch_complete
  set -l words (commandline -opc)
  set -l cmdpath ""
  for w in $words[2..-1]
    string match -q -- "-*" $w; and continue
    set -l next (string trim -- "$cmdpath $w")
    set -l found (__switch_words "$next")
    test -n "$found"; and set cmdpath $next
  end
  string split " " -- (__switch_words "$cmdpath")
end
complete -c switch -f -a "(__switch_complete)"
`

export const registerCompletion = (program: Command) => {
  program
    .command("completion <shell>")
    .description("imprime el script de autocompletado para bash, zsh o fish")
    .action(
      action(async (context, shell: string) => {
        const which = oneOf(["bash", "zsh", "fish"] as const)(shell)
        const script = { bash: bashScript, zsh: zshScript, fish: fishScript }[which]
        context.streams.out.write(script(program))
        return 0
      })
    )
}

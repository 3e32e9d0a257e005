/**
 * `completion bash|zsh|fish`: shell completion scripts generated from the command tree itself.
 *
 * The scripts carry four tables: the subcommands of each command path, its flags, the values of
 * each flag that takes one, and the values of each positional argument (commander's
 * `argChoices`: the events of `trigger`, the results of `links simulate`, the states of
 * `--estado`, the shells of `completion`). The shell walks the words typed so far to find the
 * command path, skipping flags and their values and counting the arguments, then offers: a
 * flag's values after that flag (after the last comma for a list), flags after `-`, else the
 * subcommands and the argument's values, else the flags. A flag or argument without values
 * leaves it to the shell (file names).
 */
import type { Command } from "commander"
import { action, argumentWithValues, oneOf } from "../Action.js"

const SHELLS = ["bash", "zsh", "fish"] as const

/** One command path (`""`, `links`, `links simulate`, ...) and what may follow it. */
export interface CompletionEntry {
  readonly path: string
  readonly subcommands: ReadonlyArray<string>
  readonly flags: ReadonlyArray<string>
  /** The flags of this command that take a value, with the values offered (maybe none). */
  readonly valueFlags: ReadonlyArray<readonly [string, ReadonlyArray<string>]>
  /** Each positional argument's values (maybe none); the last one repeats when variadic. */
  readonly args: ReadonlyArray<ReadonlyArray<string>>
  readonly variadic: boolean
}

// `*` (every event) is left out: a shell would expand it to file names.
const offered = (values: ReadonlyArray<string> | undefined) => (values ?? []).filter((v) => v !== "*")

const valueFlagsOf = (command: Command) =>
  command.options
    .filter((option) => option.long !== undefined && (option.required || option.optional))
    .map((option) => [option.long as string, offered(option.argChoices)] as const)

export const completionTable = (program: Command): ReadonlyArray<CompletionEntry> => {
  const out: Array<CompletionEntry> = []
  const globals = program.options.map((option) => option.long).filter((name): name is string => !!name)
  const walk = (
    command: Command,
    path: string,
    inherited: ReadonlyArray<string>,
    inheritedValues: ReadonlyArray<readonly [string, ReadonlyArray<string>]>
  ) => {
    const own = command.options.map((option) => option.long).filter((name): name is string => !!name)
    const flags = [...new Set([...inherited, ...own, "--help"])]
    const valueFlags = [...inheritedValues, ...(command === program ? [] : valueFlagsOf(command))]
    const args = command.registeredArguments
    out.push({
      path,
      subcommands: command.commands.map((sub) => sub.name()),
      flags,
      valueFlags,
      args: args.map((argument) => offered(argument.argChoices)),
      variadic: args[args.length - 1]?.variadic ?? false
    })
    for (const sub of command.commands) {
      walk(
        sub,
        path === "" ? sub.name() : `${path} ${sub.name()}`,
        flags,
        command === program ? [] : valueFlags
      )
    }
  }
  walk(program, "", globals, [])
  return out
}

/** The program's own flags that take a value: they may come anywhere. */
const globalValueFlags = (program: Command) => valueFlagsOf(program)

// ---- the tables as shell functions: `case` reads the same in bash and zsh ----------------------

const q = (words: ReadonlyArray<string>) => `"${words.join(" ")}"`

const shTables = (program: Command) => {
  const table = completionTable(program)
  const cmds = table
    .filter((e) => e.subcommands.length > 0)
    .map((e) => `    "${e.path}") echo ${q(e.subcommands)} ;;`)
  const flags = table.map((e) => `    "${e.path}") echo ${q(e.flags)} ;;`)
  const values = [
    ...table.flatMap((e) =>
      e.valueFlags.map(
        ([flag, vals]) => `    "${e.path === "" ? "" : `${e.path} `}${flag}") echo ${q(vals)} ;;`
      )
    ),
    ...globalValueFlags(program).map(([flag, vals]) => `    *" ${flag}") echo ${q(vals)} ;;`)
  ]
  const args = table.flatMap((e) => [
    ...e.args.map((vals, i) => `    "${e.path}#${i}") echo ${q(vals)} ;;`),
    ...(e.variadic ? [`    "${e.path}#"*) echo ${q(e.args[e.args.length - 1] ?? [])} ;;`] : [])
  ])
  return `# The subcommands of a command path.
_switch_cmds() {
  case "$1" in
${cmds.join("\n")}
  esac
}
# The flags of a command path.
_switch_flags() {
  case "$1" in
${flags.join("\n")}
  esac
}
# "<path> <flag>": succeeds when the flag takes a value, and prints the values offered.
_switch_value() {
  case "$1" in
${values.join("\n")}
    *) return 1 ;;
  esac
}
# "<path>#<n>": succeeds when the command takes an n-th argument, and prints its values.
_switch_arg() {
  case "$1" in
${args.join("\n")}
    *) return 1 ;;
  esac
}
# Sets cmdpath, n (arguments typed) and flagvalue (1 when the word before the cursor is a flag
# that takes a value) from the words before the cursor: "$@".
_switch_walk() {
  cmdpath="" n=0 flagvalue=0
  local w skip=0
  for w in "$@"; do
    if [[ $skip == 1 ]]; then skip=0; continue; fi
    if [[ "$w" == -* ]]; then
      [[ "$w" != *=* ]] && _switch_value "$cmdpath $w" >/dev/null && skip=1
      continue
    fi
    if [[ $n == 0 && " $(_switch_cmds "$cmdpath") " == *" $w "* ]]; then
      cmdpath="\${cmdpath:+$cmdpath }$w"
    else
      n=$((n + 1))
    fi
  done
  flagvalue=$skip
}`
}

export const bashScript = (program: Command) => `# switch completion for bash. Install:
#   switch completion bash > ~/.local/share/bash-completion/completions/switch
# or add to ~/.bashrc:  source <(switch completion bash)
${shTables(program)}
_switch() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmdpath n flagvalue values words=""
  _switch_walk "\${COMP_WORDS[@]:1:COMP_CWORD-1}"
  if [[ $flagvalue == 1 ]]; then
    values="$(_switch_value "$cmdpath $prev")"
    local head=""
    [[ "$cur" == *,* ]] && head="\${cur%,*},"
    COMPREPLY=($(compgen -P "$head" -W "$values" -- "\${cur##*,}"))
    return
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$(_switch_flags "$cmdpath")" -- "$cur"))
    return
  fi
  [[ $n == 0 ]] && words="$(_switch_cmds "$cmdpath")"
  if values="$(_switch_arg "$cmdpath#$n")"; then
    words="$words $values"
  elif [[ -z "$words" ]]; then
    words="$(_switch_flags "$cmdpath")"
  fi
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _switch switch
`

export const zshScript = (program: Command) => `#compdef switch
# switch completion for zsh. Install:
#   switch completion zsh > "\${fpath[1]}/_switch"
# or add to ~/.zshrc:  source <(switch completion zsh)
${shTables(program)}
_switch() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cmdpath n flagvalue values list=""
  local -a candidates
  _switch_walk "\${(@)words[2,CURRENT-1]}"
  if [[ $flagvalue == 1 ]]; then
    values="$(_switch_value "$cmdpath $prev")"
    if [[ -z "$values" ]]; then _files; return; fi
    compset -P '*,'
    candidates=(\${=values})
    compadd -- $candidates
    return
  fi
  if [[ "$cur" == -* ]]; then
    candidates=(\${=$(_switch_flags "$cmdpath")})
    compadd -- $candidates
    return
  fi
  [[ $n == 0 ]] && list="$(_switch_cmds "$cmdpath")"
  if values="$(_switch_arg "$cmdpath#$n")"; then
    list="$list $values"
  elif [[ -z "$list" ]]; then
    list="$(_switch_flags "$cmdpath")"
  fi
  candidates=(\${=list})
  if (( \${#candidates} == 0 )); then _files; else compadd -- $candidates; fi
}
if (( $+functions[compdef] )); then compdef _switch switch; fi
`

const fishCase = (pattern: string, body: string) => `    case ${pattern}\n      ${body}`
const fq = (text: string) => `"${text.replace(/[\\"$]/g, (c) => `\\${c}`)}"`

export const fishScript = (program: Command) => {
  const table = completionTable(program)
  const cmds = table
    .filter((e) => e.subcommands.length > 0)
    .map((e) => fishCase(fq(e.path), `echo ${fq(e.subcommands.join(" "))}`))
  const flags = table.map((e) => fishCase(fq(e.path), `echo ${fq(e.flags.join(" "))}`))
  const values = [
    ...table.flatMap((e) =>
      e.valueFlags.map(([flag, vals]) =>
        fishCase(fq(`${e.path === "" ? "" : `${e.path} `}${flag}`), `echo ${fq(vals.join(" "))}; return 0`)
      )
    ),
    ...globalValueFlags(program).map(([flag, vals]) =>
      fishCase(`'* ${flag}' ${fq(` ${flag}`)}`, `echo ${fq(vals.join(" "))}; return 0`)
    )
  ]
  const args = table.flatMap((e) => [
    ...e.args.map((vals, i) => fishCase(fq(`${e.path}#${i}`), `echo ${fq(vals.join(" "))}; return 0`)),
    ...(e.variadic
      ? [
          fishCase(
            `${fq(`${e.path}#`)}'*'`,
            `echo ${fq((e.args[e.args.length - 1] ?? []).join(" "))}; return 0`
          )
        ]
      : [])
  ])
  return `# switch completion for fish. Install:
#   switch completion fish > ~/.config/fish/completions/switch.fish
# or run:  command switch completion fish | source   (switch alone is fish's keyword)
function __switch_cmds
  switch "$argv[1]"
${cmds.join("\n")}
  end
end
function __switch_flags
  switch "$argv[1]"
${flags.join("\n")}
  end
end
function __switch_value
  switch "$argv[1]"
${values.join("\n")}
  end
  return 1
end
function __switch_arg
  switch "$argv[1]"
${args.join("\n")}
  end
  return 1
end
function __switch_complete
  set -l words (commandline -opc)
  # switch is also a fish keyword: the program is typed as "command switch".
  test "$words[1]" = command; and set words $words[2..-1]
  set -l cur (commandline -ct)
  set -l cmdpath ""
  set -l n 0
  set -l skip 0
  for w in $words[2..-1]
    if test $skip = 1
      set skip 0
      continue
    end
    if string match -q -- "-*" $w
      if not string match -q -- "*=*" $w; and __switch_value "$cmdpath $w" >/dev/null
        set skip 1
      end
      continue
    end
    if test $n = 0; and contains -- $w (string split -n " " -- (__switch_cmds "$cmdpath"))
      set cmdpath (string trim -- "$cmdpath $w")
    else
      set n (math $n + 1)
    end
  end
  if test $skip = 1
    set -l values (string split -n " " -- (__switch_value "$cmdpath $words[-1]"))
    if test (count $values) = 0
      __fish_complete_path $cur
      return
    end
    set -l head (string match -r '^.*,' -- $cur)
    for v in $values
      echo "$head$v"
    end
    return
  end
  if string match -q -- "-*" $cur
    string split -n " " -- (__switch_flags "$cmdpath")
    return
  end
  set -l out
  test $n = 0; and set out (string split -n " " -- (__switch_cmds "$cmdpath"))
  set -l values (__switch_arg "$cmdpath#$n")
  if test $status = 0
    set out $out (string split -n " " -- "$values")
  else if test (count $out) = 0
    set out (string split -n " " -- (__switch_flags "$cmdpath"))
  end
  if test (count $out) = 0
    __fish_complete_path $cur
  else
    printf '%s\\n' $out
  end
end
complete -c switch -f -a "(__switch_complete)"
`
}

export const registerCompletion = (program: Command) => {
  program
    .command("completion")
    .description("imprime el script de autocompletado para bash, zsh o fish")
    .addArgument(argumentWithValues("<shell>", "el intérprete: bash, zsh o fish", SHELLS))
    .action(
      action(async (context, shell: string) => {
        const which = oneOf(SHELLS)(shell)
        const script = { bash: bashScript, zsh: zshScript, fish: fishScript }[which]
        context.streams.out.write(script(program))
        return 0
      })
    )
}

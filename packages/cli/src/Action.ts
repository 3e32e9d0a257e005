/** The bridge between commander and a command's body: context, errors and exit codes; flag parsers. */
import { Argument, type Command, InvalidArgumentError, Option } from "commander"
import { type Context, contextOf } from "./Context.js"
import type { Streams } from "./Output.js"

/** The exit code of the last action run (commander's own errors are handled in Program.ts). */
export const state = { exitCode: 0 }

let streams: Streams = { out: process.stdout, err: process.stderr, env: process.env }

export const setStreams = (value: Streams) => {
  streams = value
}

/**
 * Wraps a command body: builds its context, prints a failure the SPEC way and records the exit
 * code (0 success, 1 API error, 2 usage error). The body receives commander's arguments.
 */
export const action =
  <Args extends ReadonlyArray<unknown>>(
    body: (context: Context, ...args: Args) => Promise<number | undefined>
  ) =>
  async (...raw: ReadonlyArray<unknown>): Promise<void> => {
    const command = raw[raw.length - 1] as Command
    const args = raw.slice(0, -1) as unknown as Args
    const context = contextOf(command, streams)
    try {
      state.exitCode = (await body(context, ...args)) ?? 0
    } catch (error) {
      state.exitCode = context.output.fail(error)
    }
  }

// ---- flag parsers: a bad value is a usage error (exit 2) before anything is sent ----------------

/** An amount with a decimal comma or point and up to 2 decimals. */
export const parseAmount = (value: string): number => {
  const match = /^\s*(\d+)(?:[.,](\d{1,2}))?\s*$/.exec(value)
  if (match === null) throw new InvalidArgumentError("debe ser un monto como 150.50 o 150,50")
  return Number(`${match[1]}.${match[2] ?? "0"}`)
}

export const parseInteger =
  (min: number, max: number) =>
  (value: string): number => {
    const n = Number(value)
    if (!/^\s*\d+\s*$/.test(value) || n < min || n > max) {
      throw new InvalidArgumentError(`debe ser un entero entre ${min} y ${max}`)
    }
    return n
  }

export const oneOf =
  <T extends string>(values: ReadonlyArray<T>) =>
  (value: string): T => {
    if (!(values as ReadonlyArray<string>).includes(value)) {
      throw new InvalidArgumentError(`debe ser uno de: ${values.join(", ")}`)
    }
    return value as T
  }

/** A repeatable `k=v` flag collected into a record. */
export const collectPair = (value: string, previous: Record<string, string> = {}): Record<string, string> => {
  const at = value.indexOf("=")
  if (at <= 0) throw new InvalidArgumentError(`"${value}" debe tener la forma clave=valor`)
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) }
}

/** A comma-separated list, repeatable. */
export const collectList = (value: string, previous: ReadonlyArray<string> = []): ReadonlyArray<string> => [
  ...previous,
  ...value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "")
]

// ---- values a shell completes -----------------------------------------------------------------

/**
 * An option whose values the shell completes (`switch completion`) and the help lists. Commander
 * keeps them in `argChoices`; `parse` still decides what is valid, so a comma list (`--estado
 * pagado,pendiente`) may hold several of them.
 */
export const optionWithValues = <T>(
  flags: string,
  description: string,
  values: ReadonlyArray<string>,
  parse?: (value: string, previous: T) => T
): Option => {
  const option = new Option(flags, description)
  if (parse !== undefined) option.argParser(parse)
  option.argChoices = [...values]
  return option
}

/** The same for a positional argument. */
export const argumentWithValues = (
  name: string,
  description: string,
  values: ReadonlyArray<string>
): Argument => {
  const argument = new Argument(name, description)
  argument.argChoices = [...values]
  return argument
}

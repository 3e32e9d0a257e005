/**
 * Everything the CLI writes: results on stdout (a table, `key: value` lines or JSON),
 * messages and errors on stderr, colours only on a terminal without NO_COLOR, progress bars
 * only when stderr is a terminal. Exit codes: 0 success, 1 API error, 2 usage error.
 */
import { SwitchError } from "@switch/sdk"
import { CommanderError } from "commander"

/** Exit codes of the `switch` command. */
export const ExitCode = { ok: 0, api: 1, usage: 2 } as const

/** A mistake in how the command was called (flags, arguments, a file): exit 2, nothing sent. */
export class UsageError extends Error {
  override readonly name = "UsageError"
  /** Extra facts for `--json` output (for example the rows of an invalid CSV). */
  readonly data: Readonly<Record<string, unknown>> | undefined
  readonly code: string
  constructor(message: string, options: { code?: string; data?: Readonly<Record<string, unknown>> } = {}) {
    super(message)
    this.code = options.code ?? "uso_invalido"
    this.data = options.data
  }
}

/** Where and how to write; the real process streams by default, swappable in tests. */
export interface Streams {
  readonly out: NodeJS.WritableStream & { isTTY?: boolean }
  readonly err: NodeJS.WritableStream & { isTTY?: boolean }
  readonly env: NodeJS.ProcessEnv
}

/** The output settings of one run. */
export class Output {
  readonly json: boolean
  readonly color: boolean
  readonly streams: Streams

  constructor(streams: Streams, options: { json: boolean; color?: boolean | undefined }) {
    this.streams = streams
    this.json = options.json
    const noColor = streams.env.NO_COLOR !== undefined && streams.env.NO_COLOR !== ""
    this.color = options.color !== false && !noColor && streams.out.isTTY === true
  }

  /** Whether a progress bar may be drawn (stderr is a terminal and the output is not JSON). */
  get interactive(): boolean {
    return this.streams.err.isTTY === true && !this.json
  }

  paint(code: number, text: string): string {
    return this.color ? `\u001b[${code}m${text}\u001b[0m` : text
  }
  bold = (text: string) => this.paint(1, text)
  dim = (text: string) => this.paint(2, text)
  green = (text: string) => this.paint(32, text)
  red = (text: string) => this.paint(31, text)
  yellow = (text: string) => this.paint(33, text)
  cyan = (text: string) => this.paint(36, text)

  /** A line on stdout. */
  line(text = ""): void {
    this.streams.out.write(`${text}\n`)
  }

  /**
   * A message for the person (never for a pipe): stderr. With `--json` it is a JSON line too,
   * `{"mensaje": ...}` plus `data`, so everything the command writes parses.
   */
  note(text: string, data: Readonly<Record<string, unknown>> = {}): void {
    if (this.json && !text.startsWith("{")) {
      this.streams.err.write(`${JSON.stringify({ mensaje: stripAnsi(text), ...data })}\n`)
    } else this.streams.err.write(`${text}\n`)
  }

  /** The command's result: `value` as JSON with `--json`, else `human()`. */
  result(value: unknown, human: () => void): void {
    if (this.json) this.line(JSON.stringify(value, null, 2))
    else human()
  }

  /** `key: value` lines, keys aligned. */
  fields(entries: ReadonlyArray<readonly [string, unknown]>): void {
    const width = Math.max(0, ...entries.map(([key]) => displayWidth(key)))
    for (const [key, value] of entries) {
      this.line(`${this.dim(key + " ".repeat(width - displayWidth(key)))}  ${cell(value)}`)
    }
  }

  /** A table with a header row; `columns` picks and titles the fields. */
  table<T>(rows: ReadonlyArray<T>, columns: ReadonlyArray<Column<T>>, empty = "(ninguno)"): void {
    if (rows.length === 0) {
      this.note(this.dim(empty))
      return
    }
    const cells = rows.map((row) => columns.map((column) => truncate(cell(column.value(row)), column.max)))
    const widths = columns.map((column, i) =>
      Math.max(displayWidth(column.title), ...cells.map((row) => displayWidth(row[i] ?? "")))
    )
    const render = (values: ReadonlyArray<string>) =>
      values
        .map((value, i) =>
          i === values.length - 1 ? value : value + " ".repeat((widths[i] ?? 0) - displayWidth(value))
        )
        .join("  ")
        .trimEnd()
    this.line(this.bold(render(columns.map((column) => column.title.toUpperCase()))))
    for (const row of cells) this.line(render(row))
  }

  /** Prints an error on stderr (JSON with `--json`) and returns its exit code. */
  fail(error: unknown): number {
    if (error instanceof CommanderError)
      return this.fail(new UsageError(error.message.replace(/^error: /, "")))
    if (error instanceof UsageError) {
      if (this.json) {
        this.note(JSON.stringify({ error: error.code, detail: error.message, ...error.data }, null, 2))
      } else this.note(`${this.red("error:")} ${error.message}`)
      return ExitCode.usage
    }
    if (error instanceof SwitchError) {
      if (this.json) {
        this.note(
          JSON.stringify(
            {
              error: error.code,
              status: error.status ?? null,
              detail: error.detail ?? null,
              request_id: error.requestId ?? null,
              ...(error.status === undefined ? { message: error.message } : {})
            },
            null,
            2
          )
        )
      } else {
        // The SDK's message says what happened and what to do, with the code and the status.
        this.note(`${this.red("error:")} ${error.message}`)
        const estado = (error.raw as { estado?: unknown } | null)?.estado
        if (typeof estado === "string" && error.code !== "no_encontrado" && !error.message.includes(estado)) {
          this.note(`  estado: ${estado}`)
        }
        if (error.requestId !== undefined) this.note(this.dim(`  request id: ${error.requestId}`))
      }
      return ExitCode.api
    }
    const message = error instanceof Error ? error.message : String(error)
    if (this.json) this.note(JSON.stringify({ error: "error_cli", detail: message }))
    else this.note(`${this.red("error:")} ${message}`)
    return ExitCode.api
  }
}

/** One column of a table. */
export interface Column<T> {
  readonly title: string
  readonly value: (row: T) => unknown
  /** Longest cell, in characters; longer text is cut with an ellipsis. */
  readonly max?: number
}

const cell = (value: unknown): string => {
  if (value === null || value === undefined) return "-"
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  return JSON.stringify(value)
}

// CSI sequences (colours, cursor moves) and OSC 8 links: they take no column on the screen.
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape codes are what this matches
const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g

/** The text without terminal escape codes. */
export const stripAnsi = (text: string): string => text.replace(ANSI, "")

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u
const EMOJI = /^\p{Extended_Pictographic}$/u

/** Columns one code point takes in a terminal: 0 for marks, 2 for East Asian wide and emoji. */
const charWidth = (char: string): number => {
  if (ZERO_WIDTH.test(char)) return 0
  const code = char.codePointAt(0) ?? 0
  if (code < 0x1100) return 1
  const wide =
    code <= 0x115f ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff && EMOJI.test(char)) ||
    (code >= 0x20000 && code <= 0x3fffd)
  return wide ? 2 : 1
}

/** Columns `text` takes on a terminal: escape codes take none, wide characters two. */
export const displayWidth = (text: string): number => {
  let width = 0
  for (const char of stripAnsi(text).normalize("NFC")) width += charWidth(char)
  return width
}

/** `text` cut to `max` columns with an ellipsis. */
export const truncate = (text: string, max: number | undefined): string => {
  if (max === undefined || displayWidth(text) <= max) return text
  let out = ""
  let width = 0
  for (const char of stripAnsi(text).normalize("NFC")) {
    const w = charWidth(char)
    if (width + w > max - 1) break
    out += char
    width += w
  }
  return `${out}…`
}

/** Bolivars with two decimals: `Bs 1.234,50`. */
export const bs = (monto: number | null | undefined): string =>
  monto === null || monto === undefined
    ? "-"
    : `Bs ${monto.toLocaleString("es-VE", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`

/** A progress bar on stderr, redrawn in place; silent when stderr is not a terminal. */
export class Progress {
  readonly #output: Output
  readonly #total: number
  readonly #label: string
  #drawn = false

  constructor(output: Output, total: number, label: string) {
    this.#output = output
    this.#total = total
    this.#label = label
  }

  update(done: number, suffix = ""): void {
    if (!this.#output.interactive) return
    const width = 30
    const filled = this.#total === 0 ? width : Math.round((done / this.#total) * width)
    const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`
    const pct = this.#total === 0 ? 100 : Math.floor((done / this.#total) * 100)
    this.#output.streams.err.write(
      `\r\u001b[2K${this.#label} ${bar} ${String(pct).padStart(3)}% ${done}/${this.#total}${suffix}`
    )
    this.#drawn = true
  }

  done(): void {
    if (this.#drawn) this.#output.streams.err.write("\n")
    this.#drawn = false
  }
}

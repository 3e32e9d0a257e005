/** A minimal server-sent events reader (WHATWG "event stream" parsing) over a fetch body. */
export interface SseMessage {
  readonly event: string
  readonly data: string
  readonly id: string | undefined
}

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  let event = ""
  let data: Array<string> = []
  let id: string | undefined
  let announced: string | undefined
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += decoder.decode(value, { stream: true })
      for (;;) {
        const match = /\r\n|\r|\n/.exec(buffer)
        if (match === null) break
        const line = buffer.slice(0, match.index)
        buffer = buffer.slice(match.index + match[0].length)
        if (line === "") {
          if (data.length > 0) yield { event: event || "message", data: data.join("\n"), id }
          // A block with an id and no data moves the last event id on (WHATWG), and only that.
          else if (id !== undefined && id !== announced) yield { event: "", data: "", id }
          announced = id
          event = ""
          data = []
          continue
        }
        if (line.startsWith(":")) continue
        const colon = line.indexOf(":")
        const field = colon === -1 ? line : line.slice(0, colon)
        const raw = colon === -1 ? "" : line.slice(colon + 1)
        const text = raw.startsWith(" ") ? raw.slice(1) : raw
        if (field === "event") event = text
        else if (field === "data") data.push(text)
        else if (field === "id") id = text
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined)
  }
}

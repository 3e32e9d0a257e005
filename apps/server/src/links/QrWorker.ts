/**
 * The thread behind QrPool.ts: on each request it makes `count` fresh link ids and the QR data
 * URLs of their links' URLs (`prefix` + id), and posts them back in one message.
 */
import { randomUUID } from "node:crypto"
import { parentPort } from "node:worker_threads"
import { linkQrDataUrl } from "./QrPng.js"

/** What the pool asks for. */
export interface Want {
  readonly prefix: string
  readonly count: number
}

/** What the thread answers: ids and their QR data URLs, position by position. */
export interface Made {
  readonly prefix: string
  readonly ids: ReadonlyArray<string>
  readonly qrs: ReadonlyArray<string>
}

parentPort?.on("message", ({ prefix, count }: Want) => {
  const ids: Array<string> = []
  const qrs: Array<string> = []
  for (let i = 0; i < count; i++) {
    const id = randomUUID()
    ids.push(id)
    qrs.push(linkQrDataUrl(prefix, id))
  }
  parentPort?.postMessage({ prefix, ids, qrs } satisfies Made)
})

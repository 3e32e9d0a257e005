/**
 * The node:http server with a shutdown that drains: `close()` stops new connections (idle
 * keep-alive ones close at once), ends server-sent event streams at once (they never finish by
 * themselves; their clients resume with Last-Event-ID), lets other in-flight requests finish,
 * and after a grace period closes whatever is still open.
 */
import { createServer, type Server, type ServerResponse } from "node:http"

export const GRACE_MS = 10_000

/** Headers given to writeHead are not readable through getHeader; the raw head always is. */
const isEventStream = (response: ServerResponse): boolean =>
  String(response.getHeader("content-type") ?? "").startsWith("text/event-stream") ||
  ((response as unknown as { _header?: string | null })._header ?? "")
    .toLowerCase()
    .includes("text/event-stream")

export const gracefulServer =
  (graceMs = GRACE_MS) =>
  (): Server => {
    const server = createServer()
    const open = new Set<ServerResponse>()
    const track = (response: ServerResponse) => {
      open.add(response)
      response.on("close", () => open.delete(response))
    }
    server.on("request", (_request, response: ServerResponse) => track(response))
    const close = server.close.bind(server)
    server.close = (callback?: (error?: Error) => void) => {
      for (const response of open) if (isEventStream(response)) response.destroy()
      const timer = setTimeout(() => server.closeAllConnections(), graceMs)
      timer.unref()
      return close((error) => {
        clearTimeout(timer)
        callback?.(error)
      })
    }
    return server
  }

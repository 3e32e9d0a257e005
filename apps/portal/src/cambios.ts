/**
 * Live updates for open screens (issue 45): one stream of changes per tab, opened by the shell
 * for the session's mode through the SDK (`sw.eventos.cambios`), and handed to the screens that
 * listen with {@link useCambios}. A message only names what changed; each screen reads it again
 * through the endpoints its user's role reaches.
 */
import type { Cambio } from "@switch/sdk"
import { useEffect, useRef } from "react"
import { sw } from "./api.js"

const listeners = new Set<(cambio: Cambio) => void>()

/** Follows the session's changes until the returned function is called (the shell's lifetime, per mode). */
export const seguirCambios = (): (() => void) => {
  const controller = new AbortController()
  void (async () => {
    try {
      for await (const cambio of sw.eventos.cambios({ signal: controller.signal })) {
        for (const listener of listeners) listener(cambio)
      }
    } catch {
      // A refused stream (the session ended, too many tabs) leaves the screens as they are:
      // they still load on their own.
    }
  })()
  return () => controller.abort()
}

/**
 * Calls `onCambio` for each change that `interesa` accepts, at most once per `ms` (a burst of
 * events reloads a screen once).
 */
export const useCambios = (
  onCambio: () => void,
  interesa: (cambio: Cambio) => boolean = () => true,
  ms = 150
) => {
  const latest = useRef({ onCambio, interesa })
  latest.current = { onCambio, interesa }
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const listener = (cambio: Cambio) => {
      if (!latest.current.interesa(cambio) || timer !== undefined) return
      timer = setTimeout(() => {
        timer = undefined
        latest.current.onCambio()
      }, ms)
    }
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
      if (timer !== undefined) clearTimeout(timer)
    }
  }, [ms])
}

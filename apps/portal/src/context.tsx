/** What every screen shares: the signed-in session, and the screen title that takes focus. */
import type { SesionInfo } from "@switch/sdk"
import { createContext, useContext, useEffect, useRef } from "react"

interface SessionContext {
  readonly sesion: SesionInfo
  readonly setSesion: (sesion: SesionInfo | null) => void
}

export const Session = createContext<SessionContext | null>(null)

/** The signed-in session; only screens behind sign-in use it. */
export const useSesion = () => {
  const context = useContext(Session)
  if (context === null) throw new Error("useSesion fuera de una sesión")
  return context
}

/** A screen's title: the page title follows it, and focus moves to it when the screen opens. */
export const Title = ({ children }: { readonly children: string }) => {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${children} · Panel Switch`
    ref.current?.focus()
  }, [children])
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  )
}

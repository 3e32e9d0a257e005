/** The console's routes under `/operador` (the server answers its page for each). */
import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useRef, useState } from "react"

export const BASE = "/operador"
const listeners = new Set<() => void>()

export const navigate = (to: string, options: { readonly replace?: boolean } = {}) => {
  const url = `${BASE}${to === "/" ? "" : to}`
  if (options.replace === true) history.replaceState(null, "", url)
  else history.pushState(null, "", url)
  for (const listener of listeners) listener()
}

const current = () => ({
  path: location.pathname.replace(/^\/operador/, "").replace(/\/+$/, "") || "/",
  search: location.search
})

export const useLocation = () => {
  const [where, setWhere] = useState(current)
  useEffect(() => {
    const update = () => setWhere(current())
    listeners.add(update)
    window.addEventListener("popstate", update)
    return () => {
      listeners.delete(update)
      window.removeEventListener("popstate", update)
    }
  }, [])
  return where
}

export const Link = ({ to, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly to: string }) => {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(to)
  }
  return <a {...rest} href={`${BASE}${to === "/" ? "" : to}`} onClick={onClick} />
}

/** A screen's title: the page title follows it and focus moves to it when the screen opens. */
export const Title = ({ children }: { readonly children: string }) => {
  const ref = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    document.title = `${children} · Consola Switch`
    ref.current?.focus()
  }, [children])
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  )
}

/**
 * A small client router over the History API: the portal's routes live under `/panel`, the
 * server answers index.html for each, and a link click changes the address without a reload.
 */
import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useState } from "react"

export const BASE = "/panel"

const listeners = new Set<() => void>()

/** Goes to `to` (a path under the portal, with its query) and tells every {@link useLocation}. */
export const navigate = (to: string, options: { readonly replace?: boolean } = {}) => {
  const url = `${BASE}${to}`
  if (options.replace === true) history.replaceState(null, "", url)
  else history.pushState(null, "", url)
  for (const listener of listeners) listener()
}

const current = () => ({
  path: location.pathname.replace(/^\/panel/, "").replace(/\/+$/, "") || "/",
  search: location.search
})

/** The portal path (`/links/abc`) and query of the address, following navigation and the back button. */
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

/** An anchor to a portal path: a real link (open in a new tab works), navigated in place on a plain click. */
export const Link = ({ to, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly to: string }) => {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(to)
  }
  return <a {...rest} href={`${BASE}${to}`} onClick={onClick} />
}

/**
 * How a link is addressed and searched, shared by links and batches: its page URL, the URL of
 * its QR image, the WhatsApp share link, and the text the `q` filter matches.
 */
import { Money } from "@switch/core"

/** The payment page of a link. */
export const linkUrl = (baseUrl: string, id: string) => `${baseUrl}/l/${id}`

/**
 * Where a link's page was opened from, as the query its address carries (`?origen=boton` from the
 * pay button, `?origen=whatsapp` from the WhatsApp share link): the page records it
 * (LinksRepo's `markOpenedFrom`).
 */
export const OPENED_FROM = ["boton", "whatsapp"] as const

/** A WhatsApp share link whose text carries the concept, the amount and the url (opened as `whatsapp`). */
export const waDeeplink = (url: string, concepto: string | null, monto: number): string => {
  const text = `${concepto ?? "Pago"} · ${Money.format(Money.Cents(monto))}\nPaga aquí: ${url}?origen=whatsapp`
  return `https://wa.me/?text=${encodeURIComponent(text)}`
}

/** Where the QR code of the link's URL is served as a PNG, drawn on first request (links/LinkQr.ts). */
export const qrPngUrl = (baseUrl: string, id: string): string => `${linkUrl(baseUrl, id)}/qr.png`

/** Lower-case text without accents, for the `q` filter (case- and accent-insensitive). */
export const searchable = (...parts: ReadonlyArray<string | null | undefined>): string =>
  parts
    .filter((p): p is string => typeof p === "string" && p.length > 0)
    .join(" ")
    .normalize("NFD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()

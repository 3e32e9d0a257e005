/** A link's public addresses: its page, its QR code and a WhatsApp share link. */
import { Money } from "@switch/core"

export const linkUrl = (baseUrl: string, id: string) => `${baseUrl}/l/${id}`

/** A WhatsApp share link whose text carries the concept, the amount and the url. */
export const waDeeplink = (url: string, concepto: string | null, monto: number): string => {
  const text = `${concepto ?? "Pago"} · ${Money.format(Money.Cents(monto))}\nPaga aquí: ${url}`
  return `https://wa.me/?text=${encodeURIComponent(text)}`
}

/** Where the QR code of the link's URL is served as a PNG, drawn on first request (links/LinkQr.ts). */
export const qrPngUrl = (baseUrl: string, id: string): string => `${linkUrl(baseUrl, id)}/qr.png`

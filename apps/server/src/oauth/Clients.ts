/**
 * OAuth clients (issue 34): public clients only (no secret; PKCE S256 proves the code's owner).
 *
 * - Dynamic Client Registration (RFC 7591): `POST /oauth/register` stores the client's name and
 *   redirect URIs under a random `client_id`. Redirect URIs are `https`; or, for native apps
 *   (RFC 8252), `http` on a loopback address, any port at the time of the request (§7.3), or a
 *   private-use scheme named for a domain the app controls, `com.example.app:/cb` (§7.1); never
 *   with fragments or credentials. Every other scheme (javascript:, data:, file:, http: off
 *   loopback...) is refused: the check is an allow-list.
 * - Client ID Metadata Documents (MCP authorization, revision 2025-11-25): a `client_id` that is
 *   an https URL names a JSON document the client publishes. It is fetched with the webhooks'
 *   SSRF guard (platform/Ssrf.ts: https only, public addresses checked at connect time, no
 *   redirects), at most {@link CIMD_MAX_BYTES} in {@link CIMD_TIMEOUT_MS}, its `client_id` must
 *   be its own URL, and it is cached for {@link CIMD_CACHE_SECONDS}.
 */
import { randomBytes } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { Agent, request } from "undici"
import * as Ssrf from "../platform/Ssrf.js"

export const CIMD_MAX_BYTES = 5 * 1024
export const CIMD_TIMEOUT_MS = 5_000
export const CIMD_CACHE_SECONDS = 3_600

export interface Client {
  readonly id: string
  readonly nombre: string
  readonly redirectUris: ReadonlyArray<string>
  readonly origen: "dcr" | "cimd"
  readonly uri: string | null
}

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"])

/** Control characters (NUL among them, which Postgres text refuses) have no place in a client's fields. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u001f\u007f]/

/**
 * A private-use scheme (RFC 8252 §7.1): a domain name the app controls, reversed (at least two
 * labels, so no browser scheme can pass as one), then a single slash: no naming authority.
 */
const PRIVATE_USE = /^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)+:\/(?!\/)/

/** OpenID Connect DCR's `application_type`: absent counts as native (MCP clients seldom send it). */
export type ApplicationType = "native" | "web"

/** Why `raw` cannot be a redirect URI (of an app of `type`), or undefined when it can. */
export const redirectRefusal = (raw: unknown, type: ApplicationType = "native"): string | undefined => {
  if (typeof raw !== "string" || raw.length > 2000 || CONTROL.test(raw)) return "no es una URL"
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return "no es una URL"
  }
  if (url.hash !== "" || raw.includes("#")) return "no puede llevar fragmento (#)"
  if (url.username !== "" || url.password !== "") return "no puede llevar usuario ni clave"
  if (url.protocol === "https:") return undefined
  if (url.protocol === "http:" && LOOPBACK.has(url.hostname)) return undefined
  if (PRIVATE_USE.test(raw) && url.host === "")
    return type === "native" ? undefined : "un esquema privado es solo para aplicaciones nativas"
  return "debe usar https, http solo en una dirección de loopback, o un esquema privado de aplicación nativa (com.example.app:/ruta)"
}

/**
 * Whether `given` is one of the `registered` redirect URIs: the same string, or a loopback one
 * on another port (RFC 8252 §7.3: a native app listens on whatever port the system gives it), as
 * long as `given` is already in its normal form, so the code goes back exactly where it says.
 */
export const redirectMatches = (registered: ReadonlyArray<string>, given: string): boolean => {
  if (registered.includes(given)) return true
  if (redirectRefusal(given) !== undefined) return false
  const url = new URL(given)
  if (url.protocol !== "http:" || !LOOPBACK.has(url.hostname) || url.href !== given) return false
  return registered.some((uri) => {
    const candidate = new URL(uri)
    if (candidate.protocol !== "http:" || !LOOPBACK.has(candidate.hostname)) return false
    candidate.port = url.port
    return candidate.href === given
  })
}

/** The host a redirect URI sends the user back to, as the consent screen shows it (a native app: its scheme). */
export const redirectHost = (uri: string): string => {
  const url = new URL(uri)
  return url.host === "" ? url.protocol.slice(0, -1) : url.host
}

/** Whether a `client_id` names a metadata document (an https URL with a path; http only in development). */
export const isMetadataUrl = (clientId: string, allowPrivate: boolean): boolean => {
  if (!URL.canParse(clientId)) return false
  const url = new URL(clientId)
  return (url.protocol === "https:" || (allowPrivate && url.protocol === "http:")) && url.pathname !== "/"
}

export class ClientError {
  readonly _tag = "ClientError"
  constructor(readonly detail: string) {}
}

const cleanName = (value: unknown, fallback: string): string => {
  if (typeof value !== "string") return fallback
  const clean = value.replace(new RegExp(CONTROL.source, "g"), " ").trim().slice(0, 100)
  return clean === "" ? fallback : clean
}

/** Reads and checks a client's metadata (a registration's body or a metadata document). */
export const readMetadata = (
  body: unknown
): { readonly nombre: string | undefined; readonly redirectUris: ReadonlyArray<string> } | ClientError => {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return new ClientError("los metadatos del cliente deben ser un objeto JSON")
  const b = body as Record<string, unknown>
  const type = b.application_type ?? "native"
  if (type !== "native" && type !== "web") return new ClientError("application_type admite solo native y web")
  const uris = b.redirect_uris
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10)
    return new ClientError("redirect_uris debe ser una lista de 1 a 10 URLs")
  for (const uri of uris) {
    const refusal = redirectRefusal(uri, type)
    if (refusal !== undefined) return new ClientError(`redirect_uri ${String(uri).slice(0, 200)}: ${refusal}`)
  }
  const method = b.token_endpoint_auth_method
  if (method !== undefined && method !== "none")
    return new ClientError("solo se admiten clientes públicos: token_endpoint_auth_method debe ser none")
  const grants = b.grant_types
  if (
    grants !== undefined &&
    (!Array.isArray(grants) || !grants.every((g) => g === "authorization_code" || g === "refresh_token"))
  )
    return new ClientError("grant_types admite solo authorization_code y refresh_token")
  const responses = b.response_types
  if (responses !== undefined && (!Array.isArray(responses) || !responses.every((r) => r === "code")))
    return new ClientError("response_types admite solo code")
  return {
    nombre: typeof b.client_name === "string" ? cleanName(b.client_name, "") || undefined : undefined,
    redirectUris: uris as ReadonlyArray<string>
  }
}

interface Row {
  readonly id: string
  readonly nombre: string
  readonly redirect_uris: ReadonlyArray<string>
  readonly origen: "dcr" | "cimd"
  readonly uri: string | null
  readonly fresh: boolean
}

const fromRow = (row: Row): Client => ({
  id: row.id,
  nombre: row.nombre,
  redirectUris: row.redirect_uris,
  origen: row.origen,
  uri: row.uri
})

/** Registers a client (RFC 7591); its new id. */
export const register = (metadata: {
  readonly nombre: string | undefined
  readonly redirectUris: ReadonlyArray<string>
}) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const id = `cli_${randomBytes(16).toString("base64url")}`
    const nombre = metadata.nombre ?? redirectHost(metadata.redirectUris[0] as string)
    yield* sql`
      insert into oauth_clientes (id, nombre, redirect_uris, origen)
      values (${id}, ${nombre}, ${metadata.redirectUris as Array<string>}, 'dcr')`
    return { id, nombre, redirectUris: metadata.redirectUris, origen: "dcr", uri: null } satisfies Client
  }).pipe(Effect.orDie)

/** Fetches a metadata document through the SSRF guard: its JSON, or why not. */
const fetchDocument = async (clientId: string, allowPrivate: boolean): Promise<unknown | ClientError> => {
  const checked = await Ssrf.checkUrl(clientId, { allowPrivate })
  if (checked !== null) return new ClientError(`el documento del cliente no se puede leer: ${checked.detail}`)
  const agent = new Agent({
    connect: {
      timeout: CIMD_TIMEOUT_MS,
      ...(allowPrivate ? {} : { lookup: Ssrf.guardedLookup(Ssrf.systemResolveAll) })
    },
    headersTimeout: CIMD_TIMEOUT_MS,
    bodyTimeout: CIMD_TIMEOUT_MS
  })
  try {
    const response = await request(clientId, {
      method: "GET",
      headers: { accept: "application/json" },
      dispatcher: agent,
      signal: AbortSignal.timeout(CIMD_TIMEOUT_MS)
    })
    if (response.statusCode !== 200) {
      await response.body.dump({ limit: CIMD_MAX_BYTES }).catch(() => undefined)
      return new ClientError(`el documento del cliente respondió HTTP ${response.statusCode}`)
    }
    const declared = Number(response.headers["content-length"] ?? 0)
    if (declared > CIMD_MAX_BYTES) {
      response.body.destroy()
      return new ClientError(`el documento del cliente pasa de ${CIMD_MAX_BYTES} bytes`)
    }
    const chunks: Array<Buffer> = []
    let size = 0
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length
      if (size > CIMD_MAX_BYTES) {
        response.body.destroy()
        return new ClientError(`el documento del cliente pasa de ${CIMD_MAX_BYTES} bytes`)
      }
      chunks.push(chunk as Buffer)
    }
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown
  } catch (error) {
    return new ClientError(
      `el documento del cliente no se pudo leer (${String((error as Error)?.message ?? error).slice(0, 120)})`
    )
  } finally {
    void agent.close().catch(() => undefined)
  }
}

/**
 * The client of `clientId`: a registered one, or the metadata document it names (cached); a
 * {@link ClientError} when unknown or unusable.
 */
export const find = (clientId: string, allowPrivate: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    if (clientId.length > 2000) return new ClientError("client_id demasiado largo")
    if (CONTROL.test(clientId)) return new ClientError("client_id con caracteres de control")
    const rows = yield* sql<Row>`
      select id, nombre, redirect_uris, origen, uri,
        fetched_at > now() - make_interval(secs => ${CIMD_CACHE_SECONDS}) as fresh
      from oauth_clientes where id = ${clientId}`
    const row = rows[0]
    if (row !== undefined && (row.origen === "dcr" || row.fresh)) return fromRow(row)
    if (!isMetadataUrl(clientId, allowPrivate)) return new ClientError("client_id desconocido")
    const document = yield* Effect.promise(() => fetchDocument(clientId, allowPrivate))
    if (document instanceof ClientError) return document
    if ((document as { client_id?: unknown } | null)?.client_id !== clientId)
      return new ClientError("el client_id del documento no es su propia URL")
    const metadata = readMetadata(document)
    if (metadata instanceof ClientError) return metadata
    const nombre = metadata.nombre ?? new URL(clientId).host
    const uri = (document as { client_uri?: unknown }).client_uri
    const clientUri = typeof uri === "string" && uri.length <= 2000 ? uri : null
    yield* sql`
      insert into oauth_clientes (id, nombre, redirect_uris, origen, uri, fetched_at)
      values (${clientId}, ${nombre}, ${metadata.redirectUris as Array<string>}, 'cimd', ${clientUri}, now())
      on conflict (id) do update set nombre = excluded.nombre, redirect_uris = excluded.redirect_uris,
        uri = excluded.uri, fetched_at = now()`
    return {
      id: clientId,
      nombre,
      redirectUris: metadata.redirectUris,
      origen: "cimd",
      uri: clientUri
    } satisfies Client
  }).pipe(Effect.orDie)

export const asOption = (found: Client | ClientError): Option.Option<Client> =>
  found instanceof ClientError ? Option.none() : Option.some(found)

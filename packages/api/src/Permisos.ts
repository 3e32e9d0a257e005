/**
 * Who may call each endpoint of the contract (issue 41, DESIGN §9): an allow-list written beside
 * the endpoint, as its {@link Permisos} annotation, and read by the server on the endpoint that
 * routing matched, never on the raw request path. Each endpoint says which key modes, which
 * portal roles and which OAuth scope reach it; what it does not grant is refused, and an endpoint
 * with no annotation grants nothing. {@link tabla} gathers every endpoint's grant in one table
 * (PERMISOS.md is that table as text, kept current by a test).
 */
import { HttpApi, type HttpApiGroup } from "@effect/platform"
import { Context, Option } from "effect"
import type { Scope } from "./OAuth.js"

export type Modo = "test" | "live"
export type Rol = "propietario" | "cajero" | "lectura"

/** One endpoint's grant. An empty list (or a null scope) admits nobody of that kind. */
export interface Permiso {
  /** The key modes whose `x-switch-key` reaches the endpoint. */
  readonly llave: ReadonlyArray<Modo>
  /** The portal roles whose session reaches it. */
  readonly sesion: ReadonlyArray<Rol>
  /** The scope that opens it to an OAuth access token; null: no token reaches it. */
  readonly alcance: Scope | null
}

/** The annotation that carries an endpoint's {@link Permiso}. */
export class Permisos extends Context.Tag("@switch/api/Permisos")<Permisos, Permiso>() {}

/** Both key modes. */
export const AMBOS: ReadonlyArray<Modo> = ["test", "live"]
/** Only a live key: key creation's peers, webhooks' changes, the flow setup (SPEC: `requiere_llave_live`). */
export const LIVE: ReadonlyArray<Modo> = ["live"]
/** Every portal role. */
export const TODOS: ReadonlyArray<Rol> = ["propietario", "cajero", "lectura"]
/** The roles that operate: make links and batches, cancel, simulate. */
export const OPERAN: ReadonlyArray<Rol> = ["propietario", "cajero"]
/** The roles that read the merchant's settings (keys, webhooks, notices, the request log); a cajero does not. */
export const CONFIGURAN: ReadonlyArray<Rol> = ["propietario", "lectura"]
/** The owner alone. */
export const PROPIETARIO: ReadonlyArray<Rol> = ["propietario"]

/** A grant; what it leaves out, nobody gets. */
export const permiso = (grant: {
  readonly llave?: ReadonlyArray<Modo>
  readonly sesion?: ReadonlyArray<Rol>
  readonly alcance?: Scope
}): Permiso => ({ llave: grant.llave ?? [], sesion: grant.sesion ?? [], alcance: grant.alcance ?? null })

/** Who may call an endpoint: no annotation grants nothing. */
export const permisoDe = (annotations: Context.Context<never>): Permiso =>
  Option.getOrElse(Context.getOption(annotations, Permisos), () => NADIE)

/** The grant of an endpoint nobody may call. */
export const NADIE: Permiso = permiso({})

/** A row of the table: an endpoint and its grant. `ruta` is the path as routing declares it (`:id`). */
export interface Fila {
  readonly metodo: string
  readonly ruta: string
  readonly grupo: string
  readonly endpoint: string
  /** Whether the endpoint takes a caller at all (public endpoints take none and carry no grant). */
  readonly autenticado: boolean
  readonly permiso: Permiso
}

/** Every endpoint of `api` with its grant, in declaration order. */
export const tabla = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>
): ReadonlyArray<Fila> => {
  const filas: Array<Fila> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ group, endpoint, mergedAnnotations, middleware }) => {
      filas.push({
        metodo: endpoint.method,
        ruta: endpoint.path,
        grupo: group.identifier,
        endpoint: endpoint.name,
        autenticado: [...middleware].some((tag) => tag.key === "Authentication"),
        permiso: permisoDe(mergedAnnotations)
      })
    }
  })
  return filas
}

/** The lookup key of a route: its method (HEAD as GET) and its declared path. */
export const claveRuta = (metodo: string, ruta: string): string =>
  `${metodo.toUpperCase() === "HEAD" ? "GET" : metodo.toUpperCase()} ${ruta}`

/** The table as a map from {@link claveRuta} to the grant, for the server's check. */
export const indice = (filas: ReadonlyArray<Fila>): ReadonlyMap<string, Permiso> =>
  new Map(filas.map((fila) => [claveRuta(fila.metodo, fila.ruta), fila.permiso]))

/**
 * Why a caller is refused an endpoint, or undefined when its grant admits it. A key of a mode not
 * granted is `requiere_llave_live` when the live mode would be, else a key is not for this route
 * (`401`, before anything is read); a session of a role not granted is `rol_no_permitido`, or
 * `solo_llave` when no session reaches the endpoint; a token without the endpoint's scope is
 * `insufficient_scope`.
 */
export type Rechazo =
  | { readonly _tag: "SinLlave" }
  | { readonly _tag: "RequiereLive" }
  | { readonly _tag: "SoloLlave" }
  | { readonly _tag: "RolNoPermitido"; readonly rol: Rol }
  | { readonly _tag: "SinAlcance"; readonly alcance: Scope | null }

export type Quien =
  | { readonly _tag: "Llave"; readonly modo: Modo }
  | { readonly _tag: "Sesion"; readonly rol: Rol }
  | { readonly _tag: "Token"; readonly alcances: ReadonlyArray<string> }

export const rechazo = (permiso: Permiso, quien: Quien): Rechazo | undefined => {
  switch (quien._tag) {
    case "Llave":
      if (permiso.llave.includes(quien.modo)) return undefined
      return permiso.llave.includes("live") ? { _tag: "RequiereLive" } : { _tag: "SinLlave" }
    case "Sesion":
      if (permiso.sesion.includes(quien.rol)) return undefined
      return permiso.sesion.length === 0 ? { _tag: "SoloLlave" } : { _tag: "RolNoPermitido", rol: quien.rol }
    case "Token":
      return permiso.alcance !== null && quien.alcances.includes(permiso.alcance)
        ? undefined
        : { _tag: "SinAlcance", alcance: permiso.alcance }
  }
}

const lista = (items: ReadonlyArray<string>) => (items.length === 0 ? "—" : items.join(", "))

/** The table as Markdown (PERMISOS.md): one row per authenticated endpoint. */
export const comoMarkdown = (filas: ReadonlyArray<Fila>): string =>
  [
    "# Quién puede llamar cada ruta",
    "",
    "Generado de los `Permisos` de cada endpoint (src/Permisos.ts) por `Permisos.test.ts`",
    "(`ACTUALIZAR_PERMISOS=1 npx vitest run src/Permisos.test.ts` lo reescribe). Lo que una fila",
    "no concede se rechaza: una llave de otro modo `403 requiere_llave_live` (o `401` si ninguna",
    "llave llega), otro rol `403 rol_no_permitido` (o `403 solo_llave`), un token sin el alcance",
    "`403 insufficient_scope`. Las rutas públicas no están aquí.",
    "",
    "| Método | Ruta | Llaves | Roles del panel | Alcance OAuth |",
    "|---|---|---|---|---|",
    ...filas
      .filter((fila) => fila.autenticado)
      .map(
        (fila) =>
          `| ${fila.metodo} | \`${fila.ruta}\` | ${lista(fila.permiso.llave)} | ${lista(fila.permiso.sesion)} | ${fila.permiso.alcance ?? "—"} |`
      ),
    ""
  ].join("\n")

/**
 * What the console does to merchants, as the admin API already does it (admin/AdminService.ts):
 * the view, approve, review and the configuration patch. The server's composition (Http.ts)
 * provides it from the admin service, so the console reuses the same rules and this feature
 * folder imports no other.
 */
import { Context, type Effect } from "effect"

/** A refusal of the admin rules, with its status and SPEC-shaped body. */
export interface AccionError {
  readonly status: number
  readonly error: string
  readonly detail?: unknown
}

export class ComercioAcciones extends Context.Tag("@switch/server/operador/ComercioAcciones")<
  ComercioAcciones,
  {
    readonly view: (codigo: string) => Effect.Effect<{ readonly estado: string }, AccionError>
    /** Approves with the admin rules; it mints no live key (the owner creates those in the portal). */
    readonly approve: (codigo: string, body: unknown) => Effect.Effect<unknown, AccionError>
    readonly review: (codigo: string) => Effect.Effect<unknown, AccionError>
    readonly patch: (
      codigo: string,
      body: unknown,
      opciones?: { readonly nota?: string | undefined }
    ) => Effect.Effect<unknown, AccionError>
  }
>() {}

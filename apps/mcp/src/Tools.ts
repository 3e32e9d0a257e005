/**
 * The tools, each a thin call through @switch/sdk with the caller's own key, so a key sees
 * only its merchant and mode. Nothing here sends, refunds or withdraws money.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { banks, LinkStates, type Switch, SwitchError } from "@switch/sdk"
import { z } from "zod"

const link = z
  .object({
    id: z.string(),
    url: z.string(),
    estado: z.enum(LinkStates),
    monto: z.number(),
    concepto: z.string().nullable(),
    expires_at: z.string().nullable(),
    wa_deeplink: z.string().nullable(),
    qr_png: z.string().nullable().optional(),
    mode: z.enum(["test", "live"]),
    codigo_verificacion: z.string().nullable().optional(),
    paid_at: z.string().nullable().optional()
  })
  .passthrough()

const resultado = z
  .object({
    id: z.string(),
    estado: z.string(),
    referencia_banco: z.string().nullable(),
    endtoend: z.string().nullable(),
    motivo_rechazo: z.string().nullable(),
    intentos: z.number()
  })
  .passthrough()

/**
 * A tool's arguments exactly: an argument the tool does not take is an invalid-params error
 * (as the advertised `additionalProperties: false` says), never dropped without a word, so an
 * assistant asking for a currency or a return URL learns the tool has none.
 */
const strict = <S extends z.ZodRawShape>(shape: S) => z.object(shape).strict()

const ok = <T extends Record<string, unknown>>(value: T): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value
})

/** What each link state means, for an assistant explaining why a link could not be cancelled. */
const STATE_WORDS: Readonly<Record<string, string>> = {
  pendiente: "pendiente de pago",
  cobrando: "con un cobro en curso",
  procesando: "con un pago en proceso en el banco",
  revision: "con un pago en revisión",
  pagado: "ya pagado",
  expirado: "expirado",
  cancelado: "ya cancelado"
}

/** The detail, with what an error code alone would leave unsaid (a link's state, a missing scope). */
const inWords = (error: SwitchError, detail: string): string => {
  const raw = (error.raw ?? {}) as { estado?: unknown }
  if (error.code === "no_cancelable" && typeof raw.estado === "string")
    return `el link no se puede cancelar porque está ${STATE_WORDS[raw.estado] ?? raw.estado} (estado: ${raw.estado}). ${detail}`
  if (error.code === "insufficient_scope")
    return `esta conexión no tiene permiso para esto; el comercio puede darlo al autorizar de nuevo. ${detail}`
  if (error.code === "not_found")
    return `no existe, es de otro comercio o del otro modo (prueba/live). ${detail}`
  return detail
}

/** API errors come back as tool results carrying SPEC's code and detail, never as a protocol error. */
export const toolError = (error: unknown): CallToolResult => {
  if (error instanceof SwitchError) {
    // Without a detail (no answer at all, or an error that carries none) the SDK's message says
    // what happened: "No se pudo conectar con Switch en ...".
    const detail =
      error.detail === undefined || error.detail === null || error.detail === ""
        ? error.message
        : typeof error.detail === "string"
          ? error.detail
          : JSON.stringify(error.detail)
    return {
      isError: true,
      content: [
        {
          type: "text",
          text: `${error.code ?? "error"} (HTTP ${error.status ?? "?"}): ${inWords(error, detail)}`
        }
      ]
    }
  }
  return {
    isError: true,
    content: [{ type: "text", text: `error_interno: ${String((error as Error)?.message ?? error)}` }]
  }
}

const guarded =
  <A>(run: (args: A) => Promise<CallToolResult>) =>
  async (args: A): Promise<CallToolResult> => {
    try {
      return await run(args)
    } catch (error) {
      return toolError(error)
    }
  }

const linkView = (l: Record<string, unknown>) => ({
  id: l.id,
  url: l.url,
  estado: l.estado,
  monto: l.monto,
  concepto: l.concepto ?? null,
  expires_at: l.expires_at ?? null,
  wa_deeplink: l.wa_deeplink ?? null,
  qr_png: l.qr_png ?? null,
  mode: l.mode,
  codigo_verificacion: l.codigo_verificacion ?? null,
  paid_at: l.paid_at ?? null
})

/** The OAuth scopes of the MCP sign-in (the API's `OAuth.SCOPES`). */
export const SCOPES = [
  "links:read",
  "links:write",
  "transacciones:read",
  "liquidaciones:read",
  "bancos:read"
] as const

/** The scope an access token needs for each tool; a missing one is `403 insufficient_scope`. */
export const TOOL_SCOPES: Readonly<Record<string, (typeof SCOPES)[number]>> = {
  listar_bancos: "bancos:read",
  consultar_estado: "transacciones:read",
  crear_link_cobro: "links:write",
  listar_links: "links:read",
  ver_link: "links:read",
  cancelar_link: "links:write",
  ver_liquidaciones: "liquidaciones:read"
}

/**
 * Registers every tool on `server`, calling the API as `client`. With `checkKey` (a key caller)
 * the bank list checks the key first; a token was checked by its introspection.
 */
export const registerTools = (
  server: McpServer,
  client: Switch,
  options: { readonly checkKey: boolean } = { checkKey: true }
) => {
  server.registerTool(
    "listar_bancos",
    {
      title: "Listar bancos",
      description:
        "Bancos venezolanos desde los que un pagador puede pagar: código y nombre. / Venezuelan banks payers can pay from: code and name.",
      inputSchema: {},
      outputSchema: { bancos: z.array(z.object({ codigo: z.string(), nombre: z.string() })) },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async () => {
      // The list is public, but the key is checked as on every tool: an unknown or revoked key
      // gets SPEC's 401 here too.
      if (options.checkKey) await client.config.get()
      return ok({ bancos: banks.map((b) => ({ codigo: b.codigo, nombre: b.nombre })) })
    })
  )

  server.registerTool(
    "consultar_estado",
    {
      title: "Consultar estado de una transacción",
      description:
        "Estado actualizado de una operación (cobro o pago) por su id; dado el id de un link, la transacción que lo pagó. / Current state of an operation by id; given a link's id, the transaction that paid it.",
      inputSchema: strict({
        id: z.string().min(1).max(100).describe("Id de la operación o del link / operation or link id")
      }),
      outputSchema: { ...resultado.shape, link_id: z.string().optional() },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async ({ id }: { id: string }) => {
      try {
        return ok({ ...(await client.operaciones.consultar(id)) })
      } catch (error) {
        if (!(error instanceof SwitchError) || error.code !== "not_found") throw error
        // Not an operation: perhaps a link, whose paying transaction is what was meant.
        let found: Record<string, unknown>
        try {
          found = (await client.links.get(id)) as unknown as Record<string, unknown>
        } catch {
          throw error
        }
        const txn = found.txn_id
        if (typeof txn !== "string" || txn === "")
          return {
            isError: true,
            content: [
              {
                type: "text",
                text: `sin_transaccion: el link ${id} no tiene una transacción que lo pagara; está ${STATE_WORDS[String(found.estado)] ?? found.estado} (estado: ${found.estado}).`
              }
            ]
          }
        return ok({ ...(await client.operaciones.consultar(txn)), link_id: id })
      }
    })
  )

  server.registerTool(
    "crear_link_cobro",
    {
      title: "Crear link de cobro",
      description:
        "Crea un link de pago en bolívares que el comercio envía por WhatsApp; no mueve dinero. / Creates a bolivar payment link to share on WhatsApp; moves no money.",
      inputSchema: strict({
        monto: z
          .number()
          .positive()
          .describe("Monto en Bs, hasta 2 decimales / amount in VES, up to 2 decimals"),
        concepto: z.string().min(1).max(140).describe("Concepto, hasta 140 caracteres / concept"),
        expira_horas: z.number().int().min(1).max(720).optional().describe("1 a 720 horas, por defecto 24"),
        expira_en: z
          .string()
          .max(40)
          .optional()
          .describe("Fecha y hora ISO 8601 futura en que vence; gana sobre expira_horas / ISO 8601 expiry"),
        success_url: z
          .string()
          .max(400)
          .optional()
          .describe("https://: adónde vuelve el pagador tras pagar / where the payer returns after paying"),
        failure_url: z
          .string()
          .max(400)
          .optional()
          .describe(
            "https://: adónde vuelve el pagador si el pago falla / where the payer returns on failure"
          ),
        metadata: z
          .record(z.string().max(40), z.string().max(200))
          .refine((m) => Object.keys(m).length <= 20, "hasta 20 claves / up to 20 keys")
          .optional(),
        idempotency_key: z.string().min(1).max(64).optional().describe("Repetirla devuelve el mismo link")
      }),
      outputSchema: {
        id: z.string(),
        url: z.string(),
        estado: z.enum(LinkStates),
        expires_at: z.string().nullable(),
        wa_deeplink: z.string().nullable(),
        qr_png: z
          .string()
          .nullable()
          .describe("URL del código QR del link en PNG / URL of the link's QR code as a PNG")
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false
      }
    },
    guarded(async (args: Record<string, unknown>) => {
      const created = (await client.links.create(args as never)) as unknown as Record<string, unknown>
      return ok({
        id: String(created.id),
        url: String(created.url),
        estado: created.estado as string,
        expires_at: (created.expires_at as string | null) ?? null,
        wa_deeplink: (created.wa_deeplink as string | null) ?? null,
        qr_png: (created.qr_png as string | null) ?? null
      })
    })
  )

  server.registerTool(
    "listar_links",
    {
      title: "Listar links",
      description:
        "Links del comercio, del más reciente al más antiguo, con los filtros de GET /links. / The merchant's links, newest first, with GET /links filters.",
      inputSchema: strict({
        estado: z
          .string()
          .max(200)
          .optional()
          .describe("Estados separados por comas / comma-separated states"),
        desde: z.string().max(40).optional(),
        hasta: z.string().max(40).optional(),
        q: z.string().max(80).optional(),
        min: z.number().min(0).optional(),
        max: z.number().min(0).optional(),
        con_propina: z.boolean().optional(),
        origen: z.enum(["api", "panel", "mi_pagina", "boton", "whatsapp"]).optional(),
        limit: z.number().int().min(1).max(200).optional(),
        offset: z.number().int().min(0).optional()
      }),
      outputSchema: { links: z.array(link) },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async (args: Record<string, unknown>) => {
      const page = (await client.links.list(args as never)) as unknown as ReadonlyArray<
        Record<string, unknown>
      >
      return ok({ links: page.map(linkView) })
    })
  )

  server.registerTool(
    "ver_link",
    {
      title: "Ver link",
      description: "Un link del comercio por su id. / One of the merchant's links by id.",
      inputSchema: strict({ id: z.string().min(1).max(100) }),
      outputSchema: link.shape,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async ({ id }: { id: string }) =>
      ok(linkView((await client.links.get(id)) as unknown as Record<string, unknown>))
    )
  )

  server.registerTool(
    "cancelar_link",
    {
      title: "Cancelar link",
      description:
        "Cancela un link que sigue pendiente; uno pagado o en proceso no se cancela. / Cancels a still-pending link; paid or in-progress ones cannot be.",
      inputSchema: strict({ id: z.string().min(1).max(100) }),
      outputSchema: { id: z.string(), estado: z.literal("cancelado") },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }
    },
    guarded(async ({ id }: { id: string }) => {
      const result = await client.links.cancel(id)
      return ok({ id: result.id, estado: "cancelado" as const })
    })
  )

  server.registerTool(
    "ver_liquidaciones",
    {
      title: "Ver liquidaciones",
      description:
        "Liquidaciones del comercio: lo acreditado a su cuenta. / The merchant's settlements: what was credited to its account.",
      inputSchema: strict({
        limit: z.number().int().min(1).max(200).optional(),
        estado: z
          .enum(["PENDIENTE", "LIQUIDADA", "REVISION", "RECHAZADA"])
          .optional()
          .describe("Solo las de este estado / only this state")
      }),
      outputSchema: {
        liquidaciones: z.array(
          z
            .object({ id: z.string(), estado: z.string(), monto: z.number(), created_at: z.string() })
            .passthrough()
        )
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    },
    guarded(async ({ limit, estado }: { limit?: number | undefined; estado?: string | undefined }) => {
      const page = await client.liquidaciones.list({
        limit: limit ?? 50,
        ...(estado === undefined ? {} : { estado })
      })
      const liquidaciones = (page as unknown as ReadonlyArray<Record<string, unknown>>).map((t) => ({
        id: String(t.id),
        estado: String(t.estado),
        monto: Number(t.neto),
        cobrado: t.cobrado === null || t.cobrado === undefined ? null : Number(t.cobrado),
        link_id: (t.link_id as string | null) ?? null,
        referencia_banco: (t.referencia_banco as string | null) ?? null,
        liquidada_at: (t.liquidada_at as string | null) ?? null,
        created_at: String(t.created_at)
      }))
      return ok({ liquidaciones })
    })
  )
}

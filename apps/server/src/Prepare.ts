/**
 * Readying a database outside a server (start-up and tests): migrations, sealing, the demo
 * merchant. Beside main.ts rather than in platform/, because seeding needs the merchants feature
 * and platform imports no feature.
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { type ServerSettings, Settings } from "./Config.js"
import { KeyCacheUnlistened } from "./http/KeyCache.js"
import { seedDemoUser } from "./merchants/DemoUser.js"
import { MerchantsService, MerchantsServiceLive } from "./merchants/MerchantsService.js"
import { MailerLive } from "./platform/Mailer.js"
import { sealLegacy } from "./platform/SealLegacy.js"
import { SqlLive } from "./platform/Sql.js"

/**
 * Runs the migrations on `url`, seals secrets stored before sealing existed and, when asked, seeds
 * the demo merchant; returns its key.
 */
export const prepare = async (
  url: string,
  settings: ServerSettings,
  options: {
    readonly seed: boolean
    readonly prepared?: boolean
    /** Development only: the demo merchant's owner in the portal (merchants/DemoUser.ts). */
    readonly demoUser?: boolean
  }
): Promise<{
  codigo: string
  key: string
  usuario?: { readonly email: string; readonly password: string } | null
} | null> => {
  const runtime = ManagedRuntime.make(
    MerchantsServiceLive.pipe(
      Layer.provide(KeyCacheUnlistened),
      Layer.provide(MailerLive),
      Layer.provideMerge(SqlLive(url, { maxConnections: 2, prepared: options.prepared ?? true })),
      Layer.provideMerge(Layer.succeed(Settings, settings))
    )
  )
  try {
    return await runtime.runPromise(
      Effect.zipRight(
        sealLegacy,
        options.seed
          ? Effect.flatMap(MerchantsService, (m) => m.seedDemo).pipe(
              Effect.flatMap((demo) =>
                options.demoUser === true
                  ? Effect.map(seedDemoUser, (usuario) => ({ ...demo, usuario }))
                  : Effect.succeed(demo)
              )
            )
          : Effect.succeed(null)
      )
    )
  } finally {
    await runtime.dispose()
  }
}

import { z } from 'zod'
import type { HealthReporter } from '../healthReporter.js'
import { type MethodTable, method } from '../rpc/types.js'

const HealthArgs = z.object({ tags: z.array(z.string()).nullish() })

/** The `health` service of /ext/health (avalanchego api/health/service.go). */
export function healthMethods(reporter: HealthReporter): MethodTable {
  return {
    /** Handler for `health.health {tags}`. */
    'health.health': method(HealthArgs, ({ tags }) => reporter.report('health', tags ?? [])),
    /** Handler for `health.readiness {tags}`. */
    'health.readiness': method(HealthArgs, ({ tags }) => reporter.report('readiness', tags ?? [])),
    /** Handler for `health.liveness {tags}`. */
    'health.liveness': method(HealthArgs, ({ tags }) => reporter.report('liveness', tags ?? [])),
  }
}

import {
  buildSchema,
  getNamedType,
  isAbstractType,
  isObjectType,
  Kind,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql'
import { describe, expect, it } from 'vitest'
import { cacheConfig } from './cache.ts'

// The API's schema as the Go side declares it (graph/*.graphqls at the root of the repository).
const schemaFiles = import.meta.glob<string>('../../../graph/*.graphqls', { query: '?raw', import: 'default', eager: true })

function loadSchema(extra = ''): GraphQLSchema {
  return buildSchema([...Object.values(schemaFiles), extra].join('\n'))
}

/** Whether the user (the web app's session) may read the field: its @auth accepts USER, or it has none. */
function userMayRead(field: GraphQLField<unknown, unknown>): boolean {
  const auth = field.astNode?.directives?.find((d) => d.name.value === 'auth')
  if (!auth) return true
  const accept = auth.arguments?.find((a) => a.name.value === 'accept')?.value
  return accept?.kind === Kind.LIST && accept.values.some((v) => v.kind === Kind.ENUM && v.value === 'USER')
}

/**
 * The object types that can appear in an answer to the web app: every type a field the user may
 * read returns, from the root fields whose @auth accepts USER down (an interface or union stands
 * for each of its object types). Arguments and inputs are not answers, and a field only the worker
 * or a run may call (startRun, pendingRetries, the runs' tools) adds nothing.
 */
function userReachableTypes(schema: GraphQLSchema): Set<GraphQLObjectType> {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((t) => t != null)
  const reached = new Set<GraphQLObjectType>()
  const visit = (type: GraphQLNamedType) => {
    if (isAbstractType(type)) {
      for (const t of schema.getPossibleTypes(type)) visit(t)
      return
    }
    if (!isObjectType(type) || reached.has(type)) return
    reached.add(type)
    for (const field of Object.values(type.getFields())) {
      if (userMayRead(field)) visit(getNamedType(field.type))
    }
  }
  for (const root of roots) {
    for (const field of Object.values(root.getFields())) {
      if (userMayRead(field)) visit(getNamedType(field.type))
    }
  }
  for (const root of roots) reached.delete(root)
  return reached
}

/** The types of those without an id field: the ones the normalised cache can't key. */
function idlessTypes(schema: GraphQLSchema): string[] {
  return [...userReachableTypes(schema)]
    .filter((t) => !('id' in t.getFields()))
    .map((t) => t.name)
    .sort()
}

const embedded = Object.keys(cacheConfig.keys ?? {}).sort()

describe('cacheConfig.keys', () => {
  it('lists exactly the id-less object types the user can be answered with', () => {
    expect(embedded).toEqual(idlessTypes(loadSchema()))
  })

  it('keys each of them as embedded (no key of its own)', () => {
    for (const type of embedded) expect(cacheConfig.keys?.[type]?.({ __typename: type })).toBeNull()
  })

  // The walk itself: a new id-less type that the user can be answered with is found, and one
  // behind a field only the worker may call is not.
  it('finds a new id-less type the user can reach, and not one only the worker can', () => {
    const schema = loadSchema(`
      type UserOnlyThing { n: Int! }
      type WorkerOnlyThing { n: Int! }
      type UserRecord { id: ID! thing: UserOnlyThing! }
      extend type Query {
        userRecord: UserRecord @auth(accept: [USER])
        workerThing: WorkerOnlyThing! @auth(accept: [WORKER])
      }
    `)
    const found = idlessTypes(schema)
    expect(found).toContain('UserOnlyThing')
    expect(found).not.toContain('UserRecord')
    expect(found).not.toContain('WorkerOnlyThing')
    expect(found).not.toEqual(embedded)
  })

  it('leaves out the worker’s and the runs’ own types', () => {
    const found = idlessTypes(loadSchema())
    for (const type of ['StartRunPayload', 'ToolResult', 'RunGenerationCheck', 'RetryOrigin', 'ImportMemoryFilePayload']) {
      expect(found).not.toContain(type)
    }
  })
})

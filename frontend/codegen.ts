import type { CodegenConfig } from '@graphql-codegen/cli'

// Typed operations for the web app: `npm run codegen` reads the API's schema straight from the Go
// side (../graph/*.graphqls) and the operations written with graphql() under src/, and writes
// src/gql/. The output is committed, so building the app needs neither this step nor the network.
const config: CodegenConfig = {
  schema: '../graph/*.graphqls',
  documents: ['src/**/*.{ts,tsx}', '!src/gql/**/*'],
  ignoreNoDocuments: false,
  generates: {
    './src/gql/': {
      preset: 'client',
      presetConfig: {
        // Components read whole result objects; masking would add useFragment calls and no safety
        // this small app needs.
        fragmentMasking: false,
      },
      config: {
        // erasableSyntaxOnly forbids TypeScript enums; GraphQL enums become string unions.
        enumType: 'string-literal',
        useTypeImports: true,
        scalars: { Time: 'string', ID: 'string' },
        strictScalars: true,
        skipTypename: false,
      },
    },
  },
}

export default config

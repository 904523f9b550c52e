import { graphql } from '../gql'

// Every GraphQL operation the web app sends, in one place so it can be read against the schema
// (../graph/*.graphqls). `npm run codegen` turns each into a typed document in src/gql/.

export const TeammatesQuery = graphql(`
  query Teammates {
    teammates {
      id
      name
      createdAt
    }
  }
`)

export const TeammateQuery = graphql(`
  query Teammate($id: ID!) {
    teammate(id: $id) {
      id
      name
      createdAt
      generation
    }
  }
`)

export const CreateTeammateMutation = graphql(`
  mutation CreateTeammate($input: CreateTeammateInput!) {
    createTeammate(input: $input) {
      teammate {
        id
        name
        createdAt
        generation
      }
    }
  }
`)

export const MemoryItemFieldsFragment = graphql(`
  fragment MemoryItemFields on MemoryItem {
    id
    scope
    kind
    key
    content
    status
    pinned
    revision
    source
    expiresAt
    expired
    createdAt
    updatedAt
  }
`)

export const MemoryItemsQuery = graphql(`
  query MemoryItems($scope: ScopeInput!, $kind: MemoryKind, $search: String, $first: Int, $after: String) {
    memoryItems(scope: $scope, status: ACTIVE, kind: $kind, search: $search, first: $first, after: $after) {
      totalCount
      edges {
        cursor
        node {
          ...MemoryItemFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

export const MemoryItemQuery = graphql(`
  query MemoryItem($id: ID!) {
    memoryItem(id: $id) {
      ...MemoryItemFields
    }
  }
`)

export const MemoryHistoryQuery = graphql(`
  query MemoryHistory($id: ID!, $first: Int, $after: String) {
    memoryItem(id: $id) {
      id
      revision
      revisions(first: $first, after: $after) {
        edges {
          cursor
          node {
            revision
            content
            key
            kind
            pinned
            expiresAt
            action
            actor
            basedOn
            createdAt
          }
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }
  }
`)

export const CreateMemoryMutation = graphql(`
  mutation CreateMemory($input: CreateMemoryInput!) {
    createMemory(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

export const EditMemoryMutation = graphql(`
  mutation EditMemory($input: EditMemoryInput!) {
    editMemory(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

export const UndoMemoryEditMutation = graphql(`
  mutation UndoMemoryEdit($input: UndoMemoryEditInput!) {
    undoMemoryEdit(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

export const RestoreMemoryRevisionMutation = graphql(`
  mutation RestoreMemoryRevision($input: RestoreMemoryRevisionInput!) {
    restoreMemoryRevision(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

export const MemoryChangedSubscription = graphql(`
  subscription MemoryChanged($scope: ScopeInput!) {
    memoryChanged(scope: $scope) {
      scope
      itemId
      revision
      action
      status
    }
  }
`)

export const GenerationChangedSubscription = graphql(`
  subscription GenerationChanged($teammateId: ID!) {
    generationChanged(teammateId: $teammateId) {
      teammateId
      generation
    }
  }
`)

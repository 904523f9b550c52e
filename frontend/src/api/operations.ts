import { graphql } from '../gql'

// Every GraphQL operation the web app sends, in one place so it can be read against the schema
// (../graph/*.graphqls). `npm run codegen` turns each into a typed document in src/gql/.

export const TeammatesQuery = graphql(`
  query Teammates {
    teammates {
      id
      name
      createdAt
      activity {
        memories
        suggestions
        lastConversationAt
        lastActivityAt
      }
    }
  }
`)

// One search across shared memory and every teammate's (user only).
export const SearchMemoryQuery = graphql(`
  query SearchMemory($search: String!) {
    searchMemory(search: $search, first: 50) {
      ...MemoryItemFields
      teammate {
        id
        name
      }
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

export const RenameTeammateMutation = graphql(`
  mutation RenameTeammate($input: RenameTeammateInput!) {
    renameTeammate(input: $input) {
      teammate {
        id
        name
        createdAt
        generation
      }
    }
  }
`)

// Asks the server whether a pasted token is the user's, before the login link is opened with it:
// candidates takes the user's credential only, so a worker's token answers FORBIDDEN and a wrong one
// UNAUTHENTICATED. The token travels as a bearer header, never in a URL until it is known to work.
export const UserTokenProbeQuery = graphql(`
  query UserTokenProbe {
    candidates(scope: { teammateId: null }) {
      id
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
  query MemoryItems($scope: ScopeInput!, $kind: MemoryKind, $kinds: [MemoryKind!], $search: String, $first: Int, $after: String) {
    memoryItems(scope: $scope, status: ACTIVE, kind: $kind, kinds: $kinds, search: $search, first: $first, after: $after) {
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

// Forgetting (F1–F6) and the tombstone check before saving a text again (F3).

export const ForgetMemoryMutation = graphql(`
  mutation ForgetMemory($input: ForgetMemoryInput!) {
    forgetMemory(input: $input) {
      item {
        id
        status
        revision
      }
      alsoForgotten {
        id
        status
        revision
      }
    }
  }
`)

// What the forget dialog shows besides the item: the same text elsewhere, and what the storage keeps.
export const ForgetInfoQuery = graphql(`
  query ForgetInfo($id: ID!) {
    copies(id: $id) {
      id
      scope
      status
      key
      content
      teammate {
        id
        name
      }
    }
    erasure {
      purged
      purgeDelaySeconds
    }
  }
`)

export const ForgottenBeforeQuery = graphql(`
  query ForgottenBefore($scope: ScopeInput!, $content: String!) {
    forgottenBefore(scope: $scope, content: $content)
  }
`)

// Suggestions: candidates waiting for the user (A2, A4, A6).

export const CandidateFieldsFragment = graphql(`
  fragment CandidateFields on MemoryItem {
    ...MemoryItemFields
    evidence
    targetItemId
    targetRevision
    proposesForget
    sourceRunId
    timesSuggested
    sourceTeammate {
      id
      name
    }
  }
`)

export const CandidatesQuery = graphql(`
  query Candidates($scope: ScopeInput!, $first: Int, $after: String) {
    memoryItems(scope: $scope, status: CANDIDATE, first: $first, after: $after) {
      totalCount
      edges {
        node {
          ...CandidateFields
        }
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`)

export const CandidateArrivedSubscription = graphql(`
  subscription CandidateArrived($scope: ScopeInput!) {
    candidateArrived(scope: $scope) {
      ...CandidateFields
    }
  }
`)

export const ConfirmCandidateMutation = graphql(`
  mutation ConfirmCandidate($input: ConfirmCandidateInput!) {
    confirmCandidate(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

export const DismissCandidateMutation = graphql(`
  mutation DismissCandidate($input: DismissCandidateInput!) {
    dismissCandidate(input: $input) {
      item {
        id
        status
      }
    }
  }
`)

// Conversations: runs, feedback and lessons (L1–L4), and what each run was given (P7).

export const RunFieldsFragment = graphql(`
  fragment RunFields on Run {
    id
    status
    startedByUser
    createdAt
    endedAt
    cancelledAt
    userMessage
    retryNote
    retryOfRunId
    reply
    rating
    thread {
      id
      generation
    }
  }
`)

export const RunsQuery = graphql(`
  query Runs($teammateId: ID!, $first: Int, $before: ID) {
    runs(teammateId: $teammateId, first: $first, before: $before) {
      ...RunFields
    }
  }
`)

export const RunQuery = graphql(`
  query Run($id: ID!) {
    run(id: $id) {
      ...RunFields
    }
  }
`)

export const RunMemoryContextQuery = graphql(`
  query RunMemoryContext($id: ID!) {
    run(id: $id) {
      id
      memoryContext {
        position
        itemId
        revisionGiven
        currentRevision
        state
        truncated
        item {
          id
          scope
          content
          key
          kind
          expiresAt
        }
      }
    }
  }
`)

export const RateRunMutation = graphql(`
  mutation RateRun($input: RateRunInput!) {
    rateRun(input: $input) {
      id
      rating
    }
  }
`)

export const CancelRunMutation = graphql(`
  mutation CancelRun($input: CancelRunInput!) {
    cancelRun(input: $input) {
      ...RunFields
    }
  }
`)

export const KeepLessonMutation = graphql(`
  mutation KeepLesson($input: KeepLessonInput!) {
    keepLesson(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

export const RetryRunWithNoteMutation = graphql(`
  mutation RetryRunWithNote($input: RetryRunWithNoteInput!) {
    retryRunWithNote(input: $input) {
      messageId
      threadId
      retryOfRunId
      prompt
      note
      createdAt
    }
  }
`)

export const LessonsQuery = graphql(`
  query Lessons($teammateId: ID!) {
    lessons(teammateId: $teammateId) {
      item {
        ...MemoryItemFields
      }
      run {
        id
        status
        createdAt
      }
    }
  }
`)

/** The exchange behind a lesson, read when its expander opens (not for every lesson of the list). */
export const LessonRunQuery = graphql(`
  query LessonRun($id: ID!) {
    run(id: $id) {
      id
      userMessage
      reply
    }
  }
`)

// The optional AI (I1–I5) and recall (P1–P6).

export const AIStatusQuery = graphql(`
  query AIStatus {
    aiStatus {
      embeddings
      embeddingModel
      embeddingDimensions
      embeddingHost
      embedded
      embeddable
      extraction
      extractionModel
      extractionHost
      requestsToday
      dailyRequestLimit
    }
  }
`)

export const RecallPreviewQuery = graphql(`
  query RecallPreview($teammateId: ID!, $query: String!) {
    recallPreview(teammateId: $teammateId, query: $query) {
      vectorSearch
      vectorReason
      entries {
        header
        fullTextRank
        fullTextPosition
        vectorDistance
        vectorPosition
        score
        truncated
        item {
          id
          scope
          kind
          key
          content
          pinned
        }
      }
    }
  }
`)

// Everyday management (issue 19): deleting a teammate, import, bulk actions, undoing a dismissal.

export const TeammateActivityQuery = graphql(`
  query TeammateActivity($id: ID!) {
    teammate(id: $id) {
      id
      name
      activity {
        memories
        suggestions
        lastConversationAt
      }
    }
  }
`)

export const DeleteTeammateMutation = graphql(`
  mutation DeleteTeammate($input: DeleteTeammateInput!) {
    deleteTeammate(input: $input) {
      teammateId
      forgottenItems
      deletedRuns
      deletedThreads
      deletedMessages
    }
  }
`)

export const TeammatesChangedSubscription = graphql(`
  subscription TeammatesChanged {
    teammatesChanged {
      teammateId
      change
    }
  }
`)

export const ImportMemoryMutation = graphql(`
  mutation ImportMemory($input: ImportMemoryInput!) {
    importMemory(input: $input) {
      items {
        id
      }
      unchanged
    }
  }
`)

export const ForgetMemoriesMutation = graphql(`
  mutation ForgetMemories($input: ForgetMemoriesInput!) {
    forgetMemories(input: $input) {
      items {
        id
        status
        revision
      }
    }
  }
`)

export const PinMemoriesMutation = graphql(`
  mutation PinMemories($input: PinMemoriesInput!) {
    pinMemories(input: $input) {
      items {
        ...MemoryItemFields
      }
    }
  }
`)

export const ConfirmCandidatesMutation = graphql(`
  mutation ConfirmCandidates($input: CandidatesInput!) {
    confirmCandidates(input: $input) {
      items {
        id
      }
    }
  }
`)

export const DismissCandidatesMutation = graphql(`
  mutation DismissCandidates($input: CandidatesInput!) {
    dismissCandidates(input: $input) {
      items {
        id
      }
    }
  }
`)

export const UndoDismissCandidateMutation = graphql(`
  mutation UndoDismissCandidate($input: UndoDismissCandidateInput!) {
    undoDismissCandidate(input: $input) {
      item {
        id
        status
      }
    }
  }
`)

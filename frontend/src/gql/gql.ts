/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Session {\n    limits {\n      ...LimitsFields\n    }\n  }\n": typeof types.SessionDocument,
    "\n  query UserTokenProbe {\n    candidates(scope: { teammateId: null }) {\n      id\n    }\n  }\n": typeof types.UserTokenProbeDocument,
    "\n  fragment TeammateGeneration on Teammate {\n    id\n    generation\n  }\n": typeof types.TeammateGenerationFragmentDoc,
    "\n  fragment SettledSuggestion on MemoryItem {\n    id\n    status\n  }\n": typeof types.SettledSuggestionFragmentDoc,
    "\n  fragment LimitsFields on Limits {\n    contentLength\n    noteLength\n    keyLength\n    teammateNameLength\n    searchLength\n    messageLength\n    pageSize\n    bulkItems\n    requestBytes\n  }\n": typeof types.LimitsFieldsFragmentDoc,
    "\n  query Runs($teammateId: ID!, $first: Int, $before: ID) {\n    runs(teammateId: $teammateId, first: $first, before: $before) {\n      ...RunFields\n    }\n  }\n": typeof types.RunsDocument,
    "\n  query Run($id: ID!) {\n    run(id: $id) {\n      ...RunFields\n    }\n  }\n": typeof types.RunDocument,
    "\n  query RunMemoryContext($id: ID!) {\n    run(id: $id) {\n      id\n      memoryContext {\n        position\n        itemId\n        revisionGiven\n        currentRevision\n        state\n        truncated\n        item {\n          id\n          scope\n          content\n          key\n          kind\n          expiresAt\n        }\n      }\n    }\n  }\n": typeof types.RunMemoryContextDocument,
    "\n  fragment RunFields on Run {\n    id\n    status\n    startedByUser\n    createdAt\n    endedAt\n    cancelledAt\n    userMessage\n    retryNote\n    retryOfRunId\n    reply\n    rating\n    thread {\n      id\n      generation\n    }\n    memoryChanges {\n      kind\n      itemId\n      scope\n      waiting\n      label\n      at\n    }\n  }\n": typeof types.RunFieldsFragmentDoc,
    "\n  mutation RateRun($input: RateRunInput!) {\n    rateRun(input: $input) {\n      id\n      rating\n    }\n  }\n": typeof types.RateRunDocument,
    "\n  mutation CancelRun($input: CancelRunInput!) {\n    cancelRun(input: $input) {\n      ...RunFields\n    }\n  }\n": typeof types.CancelRunDocument,
    "\n  mutation KeepLesson($input: KeepLessonInput!) {\n    keepLesson(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.KeepLessonDocument,
    "\n  mutation RetryRunWithNote($input: RetryRunWithNoteInput!) {\n    retryRunWithNote(input: $input) {\n      messageId\n      threadId\n      retryOfRunId\n      prompt\n      note\n      createdAt\n    }\n  }\n": typeof types.RetryRunWithNoteDocument,
    "\n  mutation CancelRetry($input: CancelRetryInput!) {\n    cancelRetry(input: $input) {\n      messageId\n    }\n  }\n": typeof types.CancelRetryDocument,
    "\n  query Lessons($teammateId: ID!) {\n    lessons(teammateId: $teammateId) {\n      item {\n        ...MemoryItemFields\n      }\n      run {\n        id\n        status\n        createdAt\n      }\n    }\n  }\n": typeof types.LessonsDocument,
    "\n  query LessonRun($id: ID!) {\n    run(id: $id) {\n      id\n      userMessage\n      reply\n    }\n  }\n": typeof types.LessonRunDocument,
    "\n  mutation ForgetMemories($input: ForgetMemoriesInput!) {\n    forgetMemories(input: $input) {\n      items {\n        ...MemoryItemFields\n      }\n      alsoForgotten {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.ForgetMemoriesDocument,
    "\n  query BulkCopies($ids: [ID!]!) {\n    copiesOf(ids: $ids) {\n      id\n      scope\n      status\n      key\n      content\n      teammate {\n        id\n        name\n      }\n    }\n  }\n": typeof types.BulkCopiesDocument,
    "\n  mutation PinMemories($input: PinMemoriesInput!) {\n    pinMemories(input: $input) {\n      items {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.PinMemoriesDocument,
    "\n  mutation CreateMemory($input: CreateMemoryInput!) {\n    createMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.CreateMemoryDocument,
    "\n  mutation ForgetMemory($input: ForgetMemoryInput!) {\n    forgetMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n      alsoForgotten {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.ForgetMemoryDocument,
    "\n  query ForgetInfo($id: ID!) {\n    copies(id: $id) {\n      id\n      scope\n      status\n      key\n      content\n      teammate {\n        id\n        name\n      }\n    }\n    erasure {\n      purged\n      purgeDelaySeconds\n    }\n  }\n": typeof types.ForgetInfoDocument,
    "\n  query ForgottenBefore($scope: ScopeInput!, $content: String!) {\n    forgottenBefore(scope: $scope, content: $content)\n  }\n": typeof types.ForgottenBeforeDocument,
    "\n  query MemoryHistory($id: ID!, $first: Int, $after: String) {\n    memoryItem(id: $id) {\n      id\n      revision\n      revisions(first: $first, after: $after) {\n        edges {\n          cursor\n          node {\n            revision\n            content\n            key\n            kind\n            pinned\n            expiresAt\n            action\n            actor\n            actorTeammate {\n              id\n              name\n            }\n            runId\n            basedOn\n            createdAt\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.MemoryHistoryDocument,
    "\n  mutation RestoreMemoryRevision($input: RestoreMemoryRevisionInput!) {\n    restoreMemoryRevision(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.RestoreMemoryRevisionDocument,
    "\n  mutation UndoMemoryEdit($input: UndoMemoryEditInput!) {\n    undoMemoryEdit(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.UndoMemoryEditDocument,
    "\n  query LessonCount($scope: ScopeInput!) {\n    memoryItems(scope: $scope, kind: LESSON, first: 1) {\n      totalCount\n    }\n  }\n": typeof types.LessonCountDocument,
    "\n  query RecallPreview($teammateId: ID!, $query: String!) {\n    recallPreview(teammateId: $teammateId, query: $query) {\n      memoryOff\n      vectorSearch\n      vectorReason\n      leftOut {\n        noSharedWord\n        overBudget\n        expired\n        waiting\n      }\n      entries {\n        header\n        fullTextRank\n        fullTextPosition\n        bm25Score\n        foundBy\n        vectorDistance\n        vectorPosition\n        score\n        truncated\n        item {\n          id\n          scope\n          kind\n          key\n          content\n          pinned\n        }\n      }\n    }\n  }\n": typeof types.RecallPreviewDocument,
    "\n  mutation ImportMemory($input: ImportMemoryInput!) {\n    importMemory(input: $input) {\n      items {\n        id\n      }\n      unchanged\n    }\n  }\n": typeof types.ImportMemoryDocument,
    "\n  fragment MemoryItemFields on MemoryItem {\n    id\n    scope\n    kind\n    key\n    content\n    status\n    pinned\n    revision\n    lastAction\n    source\n    expiresAt\n    expired\n    createdAt\n    updatedAt\n    provenance {\n      kind\n      teammate {\n        id\n        name\n      }\n      runId\n      quote\n      at\n      confirmedAt\n    }\n  }\n": typeof types.MemoryItemFieldsFragmentDoc,
    "\n  query MemoryItem($id: ID!) {\n    memoryItem(id: $id) {\n      ...MemoryItemFields\n    }\n  }\n": typeof types.MemoryItemDocument,
    "\n  mutation EditMemory($input: EditMemoryInput!) {\n    editMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.EditMemoryDocument,
    "\n  query MemoryItems($scope: ScopeInput!, $kind: MemoryKind, $kinds: [MemoryKind!], $search: String, $first: Int, $after: String) {\n    memoryItems(scope: $scope, status: ACTIVE, kind: $kind, kinds: $kinds, search: $search, first: $first, after: $after) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...MemoryItemFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.MemoryItemsDocument,
    "\n  subscription MemoryChanged($scope: ScopeInput!) {\n    memoryChanged(scope: $scope) {\n      scope\n      itemId\n      revision\n      action\n      status\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.MemoryChangedDocument,
    "\n  query AIStatus {\n    aiStatus {\n      embeddings\n      embeddingModel\n      embeddingDimensions\n      embeddingHost\n      embedded\n      embeddable\n      extraction\n      extractionModel\n      extractionHost\n      requestsToday\n      dailyRequestLimit\n    }\n  }\n": typeof types.AiStatusDocument,
    "\n  query AboutYouWaiting {\n    memoryItems(scope: { teammateId: null }, status: CANDIDATE, first: 1) {\n      totalCount\n    }\n  }\n": typeof types.AboutYouWaitingDocument,
    "\n  query Backups {\n    backups {\n      enabled\n      intervalSeconds\n      keep\n      count\n      totalBytes\n      last {\n        name\n        createdAt\n        bytes\n        migration\n      }\n    }\n  }\n": typeof types.BackupsDocument,
    "\n  mutation ConfirmCandidate($input: ConfirmCandidateInput!) {\n    confirmCandidate(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": typeof types.ConfirmCandidateDocument,
    "\n  mutation DismissCandidate($input: DismissCandidateInput!) {\n    dismissCandidate(input: $input) {\n      item {\n        id\n        scope\n        status\n      }\n    }\n  }\n": typeof types.DismissCandidateDocument,
    "\n  fragment CandidateFields on MemoryItem {\n    ...MemoryItemFields\n    evidence\n    waitReason\n    targetItemId\n    targetRevision\n    proposesForget\n    sourceRunId\n    timesSuggested\n    sourceTeammate {\n      id\n      name\n    }\n  }\n": typeof types.CandidateFieldsFragmentDoc,
    "\n  query Candidates($scope: ScopeInput!, $first: Int, $after: String) {\n    memoryItems(scope: $scope, status: CANDIDATE, first: $first, after: $after) {\n      totalCount\n      edges {\n        node {\n          ...CandidateFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.CandidatesDocument,
    "\n  mutation ConfirmCandidates($input: CandidatesInput!) {\n    confirmCandidates(input: $input) {\n      items {\n        id\n        status\n        revision\n      }\n    }\n  }\n": typeof types.ConfirmCandidatesDocument,
    "\n  mutation DismissCandidates($input: CandidatesInput!) {\n    dismissCandidates(input: $input) {\n      items {\n        id\n        status\n      }\n    }\n  }\n": typeof types.DismissCandidatesDocument,
    "\n  mutation UndoDismissCandidate($input: UndoDismissCandidateInput!) {\n    undoDismissCandidate(input: $input) {\n      item {\n        id\n        scope\n        status\n      }\n    }\n  }\n": typeof types.UndoDismissCandidateDocument,
    "\n  mutation UndoConfirmCandidates($input: UndoConfirmCandidatesInput!) {\n    undoConfirmCandidates(input: $input) {\n      items {\n        id\n        scope\n        status\n      }\n    }\n  }\n": typeof types.UndoConfirmCandidatesDocument,
    "\n  query TeammateStart($scope: ScopeInput!, $teammateId: ID!) {\n    memoryItems(scope: $scope, first: 1) {\n      totalCount\n    }\n    runs(teammateId: $teammateId, first: 1) {\n      id\n    }\n  }\n": typeof types.TeammateStartDocument,
    "\n  query TeammateActivity($id: ID!) {\n    teammate(id: $id) {\n      id\n      name\n      activity {\n        memories\n        suggestions\n        lastConversationAt\n      }\n    }\n  }\n": typeof types.TeammateActivityDocument,
    "\n  mutation DeleteTeammate($input: DeleteTeammateInput!) {\n    deleteTeammate(input: $input) {\n      teammateId\n      forgottenItems\n      deletedRuns\n      deletedThreads\n      deletedMessages\n    }\n  }\n": typeof types.DeleteTeammateDocument,
    "\n  query SearchMemory($search: String!) {\n    searchMemory(search: $search, first: 50) {\n      ...MemoryItemFields\n      teammate {\n        id\n        name\n      }\n    }\n  }\n": typeof types.SearchMemoryDocument,
    "\n  mutation SetMemorySwitch($input: SetMemorySwitchInput!) {\n    setMemorySwitch(input: $input) {\n      teammate {\n        id\n        useMemory\n        saveMemory\n      }\n    }\n  }\n": typeof types.SetMemorySwitchDocument,
    "\n  query Teammate($id: ID!) {\n    teammate(id: $id) {\n      id\n      name\n      createdAt\n      generation\n      useMemory\n      saveMemory\n    }\n  }\n": typeof types.TeammateDocument,
    "\n  mutation RenameTeammate($input: RenameTeammateInput!) {\n    renameTeammate(input: $input) {\n      teammate {\n        id\n        name\n      }\n    }\n  }\n": typeof types.RenameTeammateDocument,
    "\n  subscription GenerationChanged($teammateId: ID!) {\n    generationChanged(teammateId: $teammateId) {\n      teammateId\n      generation\n    }\n  }\n": typeof types.GenerationChangedDocument,
    "\n  fragment TeammateRow on Teammate {\n    id\n    name\n    createdAt\n    useMemory\n    saveMemory\n    activity {\n      memories\n      suggestions\n      lastConversationAt\n      lastActivityAt\n    }\n  }\n": typeof types.TeammateRowFragmentDoc,
    "\n  query Teammates {\n    teammates {\n      ...TeammateRow\n    }\n  }\n": typeof types.TeammatesDocument,
    "\n  mutation CreateTeammate($input: CreateTeammateInput!) {\n    createTeammate(input: $input) {\n      teammate {\n        ...TeammateRow\n      }\n    }\n  }\n": typeof types.CreateTeammateDocument,
    "\n  subscription TeammatesChanged {\n    teammatesChanged {\n      teammateId\n      change\n      teammate {\n        ...TeammateRow\n      }\n    }\n  }\n": typeof types.TeammatesChangedDocument,
    "\n  query BackupsEnabled {\n    backups {\n      enabled\n    }\n  }\n": typeof types.BackupsEnabledDocument,
    "\n  mutation RemoveDemo {\n    removeDemo {\n      teammates {\n        teammateId\n        forgottenItems\n        deletedMessages\n      }\n      forgottenSharedItems\n    }\n  }\n": typeof types.RemoveDemoDocument,
};
const documents: Documents = {
    "\n  query Session {\n    limits {\n      ...LimitsFields\n    }\n  }\n": types.SessionDocument,
    "\n  query UserTokenProbe {\n    candidates(scope: { teammateId: null }) {\n      id\n    }\n  }\n": types.UserTokenProbeDocument,
    "\n  fragment TeammateGeneration on Teammate {\n    id\n    generation\n  }\n": types.TeammateGenerationFragmentDoc,
    "\n  fragment SettledSuggestion on MemoryItem {\n    id\n    status\n  }\n": types.SettledSuggestionFragmentDoc,
    "\n  fragment LimitsFields on Limits {\n    contentLength\n    noteLength\n    keyLength\n    teammateNameLength\n    searchLength\n    messageLength\n    pageSize\n    bulkItems\n    requestBytes\n  }\n": types.LimitsFieldsFragmentDoc,
    "\n  query Runs($teammateId: ID!, $first: Int, $before: ID) {\n    runs(teammateId: $teammateId, first: $first, before: $before) {\n      ...RunFields\n    }\n  }\n": types.RunsDocument,
    "\n  query Run($id: ID!) {\n    run(id: $id) {\n      ...RunFields\n    }\n  }\n": types.RunDocument,
    "\n  query RunMemoryContext($id: ID!) {\n    run(id: $id) {\n      id\n      memoryContext {\n        position\n        itemId\n        revisionGiven\n        currentRevision\n        state\n        truncated\n        item {\n          id\n          scope\n          content\n          key\n          kind\n          expiresAt\n        }\n      }\n    }\n  }\n": types.RunMemoryContextDocument,
    "\n  fragment RunFields on Run {\n    id\n    status\n    startedByUser\n    createdAt\n    endedAt\n    cancelledAt\n    userMessage\n    retryNote\n    retryOfRunId\n    reply\n    rating\n    thread {\n      id\n      generation\n    }\n    memoryChanges {\n      kind\n      itemId\n      scope\n      waiting\n      label\n      at\n    }\n  }\n": types.RunFieldsFragmentDoc,
    "\n  mutation RateRun($input: RateRunInput!) {\n    rateRun(input: $input) {\n      id\n      rating\n    }\n  }\n": types.RateRunDocument,
    "\n  mutation CancelRun($input: CancelRunInput!) {\n    cancelRun(input: $input) {\n      ...RunFields\n    }\n  }\n": types.CancelRunDocument,
    "\n  mutation KeepLesson($input: KeepLessonInput!) {\n    keepLesson(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.KeepLessonDocument,
    "\n  mutation RetryRunWithNote($input: RetryRunWithNoteInput!) {\n    retryRunWithNote(input: $input) {\n      messageId\n      threadId\n      retryOfRunId\n      prompt\n      note\n      createdAt\n    }\n  }\n": types.RetryRunWithNoteDocument,
    "\n  mutation CancelRetry($input: CancelRetryInput!) {\n    cancelRetry(input: $input) {\n      messageId\n    }\n  }\n": types.CancelRetryDocument,
    "\n  query Lessons($teammateId: ID!) {\n    lessons(teammateId: $teammateId) {\n      item {\n        ...MemoryItemFields\n      }\n      run {\n        id\n        status\n        createdAt\n      }\n    }\n  }\n": types.LessonsDocument,
    "\n  query LessonRun($id: ID!) {\n    run(id: $id) {\n      id\n      userMessage\n      reply\n    }\n  }\n": types.LessonRunDocument,
    "\n  mutation ForgetMemories($input: ForgetMemoriesInput!) {\n    forgetMemories(input: $input) {\n      items {\n        ...MemoryItemFields\n      }\n      alsoForgotten {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.ForgetMemoriesDocument,
    "\n  query BulkCopies($ids: [ID!]!) {\n    copiesOf(ids: $ids) {\n      id\n      scope\n      status\n      key\n      content\n      teammate {\n        id\n        name\n      }\n    }\n  }\n": types.BulkCopiesDocument,
    "\n  mutation PinMemories($input: PinMemoriesInput!) {\n    pinMemories(input: $input) {\n      items {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.PinMemoriesDocument,
    "\n  mutation CreateMemory($input: CreateMemoryInput!) {\n    createMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.CreateMemoryDocument,
    "\n  mutation ForgetMemory($input: ForgetMemoryInput!) {\n    forgetMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n      alsoForgotten {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.ForgetMemoryDocument,
    "\n  query ForgetInfo($id: ID!) {\n    copies(id: $id) {\n      id\n      scope\n      status\n      key\n      content\n      teammate {\n        id\n        name\n      }\n    }\n    erasure {\n      purged\n      purgeDelaySeconds\n    }\n  }\n": types.ForgetInfoDocument,
    "\n  query ForgottenBefore($scope: ScopeInput!, $content: String!) {\n    forgottenBefore(scope: $scope, content: $content)\n  }\n": types.ForgottenBeforeDocument,
    "\n  query MemoryHistory($id: ID!, $first: Int, $after: String) {\n    memoryItem(id: $id) {\n      id\n      revision\n      revisions(first: $first, after: $after) {\n        edges {\n          cursor\n          node {\n            revision\n            content\n            key\n            kind\n            pinned\n            expiresAt\n            action\n            actor\n            actorTeammate {\n              id\n              name\n            }\n            runId\n            basedOn\n            createdAt\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": types.MemoryHistoryDocument,
    "\n  mutation RestoreMemoryRevision($input: RestoreMemoryRevisionInput!) {\n    restoreMemoryRevision(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.RestoreMemoryRevisionDocument,
    "\n  mutation UndoMemoryEdit($input: UndoMemoryEditInput!) {\n    undoMemoryEdit(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.UndoMemoryEditDocument,
    "\n  query LessonCount($scope: ScopeInput!) {\n    memoryItems(scope: $scope, kind: LESSON, first: 1) {\n      totalCount\n    }\n  }\n": types.LessonCountDocument,
    "\n  query RecallPreview($teammateId: ID!, $query: String!) {\n    recallPreview(teammateId: $teammateId, query: $query) {\n      memoryOff\n      vectorSearch\n      vectorReason\n      leftOut {\n        noSharedWord\n        overBudget\n        expired\n        waiting\n      }\n      entries {\n        header\n        fullTextRank\n        fullTextPosition\n        bm25Score\n        foundBy\n        vectorDistance\n        vectorPosition\n        score\n        truncated\n        item {\n          id\n          scope\n          kind\n          key\n          content\n          pinned\n        }\n      }\n    }\n  }\n": types.RecallPreviewDocument,
    "\n  mutation ImportMemory($input: ImportMemoryInput!) {\n    importMemory(input: $input) {\n      items {\n        id\n      }\n      unchanged\n    }\n  }\n": types.ImportMemoryDocument,
    "\n  fragment MemoryItemFields on MemoryItem {\n    id\n    scope\n    kind\n    key\n    content\n    status\n    pinned\n    revision\n    lastAction\n    source\n    expiresAt\n    expired\n    createdAt\n    updatedAt\n    provenance {\n      kind\n      teammate {\n        id\n        name\n      }\n      runId\n      quote\n      at\n      confirmedAt\n    }\n  }\n": types.MemoryItemFieldsFragmentDoc,
    "\n  query MemoryItem($id: ID!) {\n    memoryItem(id: $id) {\n      ...MemoryItemFields\n    }\n  }\n": types.MemoryItemDocument,
    "\n  mutation EditMemory($input: EditMemoryInput!) {\n    editMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.EditMemoryDocument,
    "\n  query MemoryItems($scope: ScopeInput!, $kind: MemoryKind, $kinds: [MemoryKind!], $search: String, $first: Int, $after: String) {\n    memoryItems(scope: $scope, status: ACTIVE, kind: $kind, kinds: $kinds, search: $search, first: $first, after: $after) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...MemoryItemFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.MemoryItemsDocument,
    "\n  subscription MemoryChanged($scope: ScopeInput!) {\n    memoryChanged(scope: $scope) {\n      scope\n      itemId\n      revision\n      action\n      status\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.MemoryChangedDocument,
    "\n  query AIStatus {\n    aiStatus {\n      embeddings\n      embeddingModel\n      embeddingDimensions\n      embeddingHost\n      embedded\n      embeddable\n      extraction\n      extractionModel\n      extractionHost\n      requestsToday\n      dailyRequestLimit\n    }\n  }\n": types.AiStatusDocument,
    "\n  query AboutYouWaiting {\n    memoryItems(scope: { teammateId: null }, status: CANDIDATE, first: 1) {\n      totalCount\n    }\n  }\n": types.AboutYouWaitingDocument,
    "\n  query Backups {\n    backups {\n      enabled\n      intervalSeconds\n      keep\n      count\n      totalBytes\n      last {\n        name\n        createdAt\n        bytes\n        migration\n      }\n    }\n  }\n": types.BackupsDocument,
    "\n  mutation ConfirmCandidate($input: ConfirmCandidateInput!) {\n    confirmCandidate(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n": types.ConfirmCandidateDocument,
    "\n  mutation DismissCandidate($input: DismissCandidateInput!) {\n    dismissCandidate(input: $input) {\n      item {\n        id\n        scope\n        status\n      }\n    }\n  }\n": types.DismissCandidateDocument,
    "\n  fragment CandidateFields on MemoryItem {\n    ...MemoryItemFields\n    evidence\n    waitReason\n    targetItemId\n    targetRevision\n    proposesForget\n    sourceRunId\n    timesSuggested\n    sourceTeammate {\n      id\n      name\n    }\n  }\n": types.CandidateFieldsFragmentDoc,
    "\n  query Candidates($scope: ScopeInput!, $first: Int, $after: String) {\n    memoryItems(scope: $scope, status: CANDIDATE, first: $first, after: $after) {\n      totalCount\n      edges {\n        node {\n          ...CandidateFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.CandidatesDocument,
    "\n  mutation ConfirmCandidates($input: CandidatesInput!) {\n    confirmCandidates(input: $input) {\n      items {\n        id\n        status\n        revision\n      }\n    }\n  }\n": types.ConfirmCandidatesDocument,
    "\n  mutation DismissCandidates($input: CandidatesInput!) {\n    dismissCandidates(input: $input) {\n      items {\n        id\n        status\n      }\n    }\n  }\n": types.DismissCandidatesDocument,
    "\n  mutation UndoDismissCandidate($input: UndoDismissCandidateInput!) {\n    undoDismissCandidate(input: $input) {\n      item {\n        id\n        scope\n        status\n      }\n    }\n  }\n": types.UndoDismissCandidateDocument,
    "\n  mutation UndoConfirmCandidates($input: UndoConfirmCandidatesInput!) {\n    undoConfirmCandidates(input: $input) {\n      items {\n        id\n        scope\n        status\n      }\n    }\n  }\n": types.UndoConfirmCandidatesDocument,
    "\n  query TeammateStart($scope: ScopeInput!, $teammateId: ID!) {\n    memoryItems(scope: $scope, first: 1) {\n      totalCount\n    }\n    runs(teammateId: $teammateId, first: 1) {\n      id\n    }\n  }\n": types.TeammateStartDocument,
    "\n  query TeammateActivity($id: ID!) {\n    teammate(id: $id) {\n      id\n      name\n      activity {\n        memories\n        suggestions\n        lastConversationAt\n      }\n    }\n  }\n": types.TeammateActivityDocument,
    "\n  mutation DeleteTeammate($input: DeleteTeammateInput!) {\n    deleteTeammate(input: $input) {\n      teammateId\n      forgottenItems\n      deletedRuns\n      deletedThreads\n      deletedMessages\n    }\n  }\n": types.DeleteTeammateDocument,
    "\n  query SearchMemory($search: String!) {\n    searchMemory(search: $search, first: 50) {\n      ...MemoryItemFields\n      teammate {\n        id\n        name\n      }\n    }\n  }\n": types.SearchMemoryDocument,
    "\n  mutation SetMemorySwitch($input: SetMemorySwitchInput!) {\n    setMemorySwitch(input: $input) {\n      teammate {\n        id\n        useMemory\n        saveMemory\n      }\n    }\n  }\n": types.SetMemorySwitchDocument,
    "\n  query Teammate($id: ID!) {\n    teammate(id: $id) {\n      id\n      name\n      createdAt\n      generation\n      useMemory\n      saveMemory\n    }\n  }\n": types.TeammateDocument,
    "\n  mutation RenameTeammate($input: RenameTeammateInput!) {\n    renameTeammate(input: $input) {\n      teammate {\n        id\n        name\n      }\n    }\n  }\n": types.RenameTeammateDocument,
    "\n  subscription GenerationChanged($teammateId: ID!) {\n    generationChanged(teammateId: $teammateId) {\n      teammateId\n      generation\n    }\n  }\n": types.GenerationChangedDocument,
    "\n  fragment TeammateRow on Teammate {\n    id\n    name\n    createdAt\n    useMemory\n    saveMemory\n    activity {\n      memories\n      suggestions\n      lastConversationAt\n      lastActivityAt\n    }\n  }\n": types.TeammateRowFragmentDoc,
    "\n  query Teammates {\n    teammates {\n      ...TeammateRow\n    }\n  }\n": types.TeammatesDocument,
    "\n  mutation CreateTeammate($input: CreateTeammateInput!) {\n    createTeammate(input: $input) {\n      teammate {\n        ...TeammateRow\n      }\n    }\n  }\n": types.CreateTeammateDocument,
    "\n  subscription TeammatesChanged {\n    teammatesChanged {\n      teammateId\n      change\n      teammate {\n        ...TeammateRow\n      }\n    }\n  }\n": types.TeammatesChangedDocument,
    "\n  query BackupsEnabled {\n    backups {\n      enabled\n    }\n  }\n": types.BackupsEnabledDocument,
    "\n  mutation RemoveDemo {\n    removeDemo {\n      teammates {\n        teammateId\n        forgottenItems\n        deletedMessages\n      }\n      forgottenSharedItems\n    }\n  }\n": types.RemoveDemoDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Session {\n    limits {\n      ...LimitsFields\n    }\n  }\n"): (typeof documents)["\n  query Session {\n    limits {\n      ...LimitsFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UserTokenProbe {\n    candidates(scope: { teammateId: null }) {\n      id\n    }\n  }\n"): (typeof documents)["\n  query UserTokenProbe {\n    candidates(scope: { teammateId: null }) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TeammateGeneration on Teammate {\n    id\n    generation\n  }\n"): (typeof documents)["\n  fragment TeammateGeneration on Teammate {\n    id\n    generation\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SettledSuggestion on MemoryItem {\n    id\n    status\n  }\n"): (typeof documents)["\n  fragment SettledSuggestion on MemoryItem {\n    id\n    status\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment LimitsFields on Limits {\n    contentLength\n    noteLength\n    keyLength\n    teammateNameLength\n    searchLength\n    messageLength\n    pageSize\n    bulkItems\n    requestBytes\n  }\n"): (typeof documents)["\n  fragment LimitsFields on Limits {\n    contentLength\n    noteLength\n    keyLength\n    teammateNameLength\n    searchLength\n    messageLength\n    pageSize\n    bulkItems\n    requestBytes\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Runs($teammateId: ID!, $first: Int, $before: ID) {\n    runs(teammateId: $teammateId, first: $first, before: $before) {\n      ...RunFields\n    }\n  }\n"): (typeof documents)["\n  query Runs($teammateId: ID!, $first: Int, $before: ID) {\n    runs(teammateId: $teammateId, first: $first, before: $before) {\n      ...RunFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Run($id: ID!) {\n    run(id: $id) {\n      ...RunFields\n    }\n  }\n"): (typeof documents)["\n  query Run($id: ID!) {\n    run(id: $id) {\n      ...RunFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RunMemoryContext($id: ID!) {\n    run(id: $id) {\n      id\n      memoryContext {\n        position\n        itemId\n        revisionGiven\n        currentRevision\n        state\n        truncated\n        item {\n          id\n          scope\n          content\n          key\n          kind\n          expiresAt\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query RunMemoryContext($id: ID!) {\n    run(id: $id) {\n      id\n      memoryContext {\n        position\n        itemId\n        revisionGiven\n        currentRevision\n        state\n        truncated\n        item {\n          id\n          scope\n          content\n          key\n          kind\n          expiresAt\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RunFields on Run {\n    id\n    status\n    startedByUser\n    createdAt\n    endedAt\n    cancelledAt\n    userMessage\n    retryNote\n    retryOfRunId\n    reply\n    rating\n    thread {\n      id\n      generation\n    }\n    memoryChanges {\n      kind\n      itemId\n      scope\n      waiting\n      label\n      at\n    }\n  }\n"): (typeof documents)["\n  fragment RunFields on Run {\n    id\n    status\n    startedByUser\n    createdAt\n    endedAt\n    cancelledAt\n    userMessage\n    retryNote\n    retryOfRunId\n    reply\n    rating\n    thread {\n      id\n      generation\n    }\n    memoryChanges {\n      kind\n      itemId\n      scope\n      waiting\n      label\n      at\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RateRun($input: RateRunInput!) {\n    rateRun(input: $input) {\n      id\n      rating\n    }\n  }\n"): (typeof documents)["\n  mutation RateRun($input: RateRunInput!) {\n    rateRun(input: $input) {\n      id\n      rating\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelRun($input: CancelRunInput!) {\n    cancelRun(input: $input) {\n      ...RunFields\n    }\n  }\n"): (typeof documents)["\n  mutation CancelRun($input: CancelRunInput!) {\n    cancelRun(input: $input) {\n      ...RunFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation KeepLesson($input: KeepLessonInput!) {\n    keepLesson(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation KeepLesson($input: KeepLessonInput!) {\n    keepLesson(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryRunWithNote($input: RetryRunWithNoteInput!) {\n    retryRunWithNote(input: $input) {\n      messageId\n      threadId\n      retryOfRunId\n      prompt\n      note\n      createdAt\n    }\n  }\n"): (typeof documents)["\n  mutation RetryRunWithNote($input: RetryRunWithNoteInput!) {\n    retryRunWithNote(input: $input) {\n      messageId\n      threadId\n      retryOfRunId\n      prompt\n      note\n      createdAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelRetry($input: CancelRetryInput!) {\n    cancelRetry(input: $input) {\n      messageId\n    }\n  }\n"): (typeof documents)["\n  mutation CancelRetry($input: CancelRetryInput!) {\n    cancelRetry(input: $input) {\n      messageId\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Lessons($teammateId: ID!) {\n    lessons(teammateId: $teammateId) {\n      item {\n        ...MemoryItemFields\n      }\n      run {\n        id\n        status\n        createdAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query Lessons($teammateId: ID!) {\n    lessons(teammateId: $teammateId) {\n      item {\n        ...MemoryItemFields\n      }\n      run {\n        id\n        status\n        createdAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LessonRun($id: ID!) {\n    run(id: $id) {\n      id\n      userMessage\n      reply\n    }\n  }\n"): (typeof documents)["\n  query LessonRun($id: ID!) {\n    run(id: $id) {\n      id\n      userMessage\n      reply\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForgetMemories($input: ForgetMemoriesInput!) {\n    forgetMemories(input: $input) {\n      items {\n        ...MemoryItemFields\n      }\n      alsoForgotten {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ForgetMemories($input: ForgetMemoriesInput!) {\n    forgetMemories(input: $input) {\n      items {\n        ...MemoryItemFields\n      }\n      alsoForgotten {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BulkCopies($ids: [ID!]!) {\n    copiesOf(ids: $ids) {\n      id\n      scope\n      status\n      key\n      content\n      teammate {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query BulkCopies($ids: [ID!]!) {\n    copiesOf(ids: $ids) {\n      id\n      scope\n      status\n      key\n      content\n      teammate {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation PinMemories($input: PinMemoriesInput!) {\n    pinMemories(input: $input) {\n      items {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation PinMemories($input: PinMemoriesInput!) {\n    pinMemories(input: $input) {\n      items {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateMemory($input: CreateMemoryInput!) {\n    createMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateMemory($input: CreateMemoryInput!) {\n    createMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForgetMemory($input: ForgetMemoryInput!) {\n    forgetMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n      alsoForgotten {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ForgetMemory($input: ForgetMemoryInput!) {\n    forgetMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n      alsoForgotten {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ForgetInfo($id: ID!) {\n    copies(id: $id) {\n      id\n      scope\n      status\n      key\n      content\n      teammate {\n        id\n        name\n      }\n    }\n    erasure {\n      purged\n      purgeDelaySeconds\n    }\n  }\n"): (typeof documents)["\n  query ForgetInfo($id: ID!) {\n    copies(id: $id) {\n      id\n      scope\n      status\n      key\n      content\n      teammate {\n        id\n        name\n      }\n    }\n    erasure {\n      purged\n      purgeDelaySeconds\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ForgottenBefore($scope: ScopeInput!, $content: String!) {\n    forgottenBefore(scope: $scope, content: $content)\n  }\n"): (typeof documents)["\n  query ForgottenBefore($scope: ScopeInput!, $content: String!) {\n    forgottenBefore(scope: $scope, content: $content)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MemoryHistory($id: ID!, $first: Int, $after: String) {\n    memoryItem(id: $id) {\n      id\n      revision\n      revisions(first: $first, after: $after) {\n        edges {\n          cursor\n          node {\n            revision\n            content\n            key\n            kind\n            pinned\n            expiresAt\n            action\n            actor\n            actorTeammate {\n              id\n              name\n            }\n            runId\n            basedOn\n            createdAt\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query MemoryHistory($id: ID!, $first: Int, $after: String) {\n    memoryItem(id: $id) {\n      id\n      revision\n      revisions(first: $first, after: $after) {\n        edges {\n          cursor\n          node {\n            revision\n            content\n            key\n            kind\n            pinned\n            expiresAt\n            action\n            actor\n            actorTeammate {\n              id\n              name\n            }\n            runId\n            basedOn\n            createdAt\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RestoreMemoryRevision($input: RestoreMemoryRevisionInput!) {\n    restoreMemoryRevision(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RestoreMemoryRevision($input: RestoreMemoryRevisionInput!) {\n    restoreMemoryRevision(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UndoMemoryEdit($input: UndoMemoryEditInput!) {\n    undoMemoryEdit(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UndoMemoryEdit($input: UndoMemoryEditInput!) {\n    undoMemoryEdit(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query LessonCount($scope: ScopeInput!) {\n    memoryItems(scope: $scope, kind: LESSON, first: 1) {\n      totalCount\n    }\n  }\n"): (typeof documents)["\n  query LessonCount($scope: ScopeInput!) {\n    memoryItems(scope: $scope, kind: LESSON, first: 1) {\n      totalCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query RecallPreview($teammateId: ID!, $query: String!) {\n    recallPreview(teammateId: $teammateId, query: $query) {\n      memoryOff\n      vectorSearch\n      vectorReason\n      leftOut {\n        noSharedWord\n        overBudget\n        expired\n        waiting\n      }\n      entries {\n        header\n        fullTextRank\n        fullTextPosition\n        bm25Score\n        foundBy\n        vectorDistance\n        vectorPosition\n        score\n        truncated\n        item {\n          id\n          scope\n          kind\n          key\n          content\n          pinned\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query RecallPreview($teammateId: ID!, $query: String!) {\n    recallPreview(teammateId: $teammateId, query: $query) {\n      memoryOff\n      vectorSearch\n      vectorReason\n      leftOut {\n        noSharedWord\n        overBudget\n        expired\n        waiting\n      }\n      entries {\n        header\n        fullTextRank\n        fullTextPosition\n        bm25Score\n        foundBy\n        vectorDistance\n        vectorPosition\n        score\n        truncated\n        item {\n          id\n          scope\n          kind\n          key\n          content\n          pinned\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ImportMemory($input: ImportMemoryInput!) {\n    importMemory(input: $input) {\n      items {\n        id\n      }\n      unchanged\n    }\n  }\n"): (typeof documents)["\n  mutation ImportMemory($input: ImportMemoryInput!) {\n    importMemory(input: $input) {\n      items {\n        id\n      }\n      unchanged\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment MemoryItemFields on MemoryItem {\n    id\n    scope\n    kind\n    key\n    content\n    status\n    pinned\n    revision\n    lastAction\n    source\n    expiresAt\n    expired\n    createdAt\n    updatedAt\n    provenance {\n      kind\n      teammate {\n        id\n        name\n      }\n      runId\n      quote\n      at\n      confirmedAt\n    }\n  }\n"): (typeof documents)["\n  fragment MemoryItemFields on MemoryItem {\n    id\n    scope\n    kind\n    key\n    content\n    status\n    pinned\n    revision\n    lastAction\n    source\n    expiresAt\n    expired\n    createdAt\n    updatedAt\n    provenance {\n      kind\n      teammate {\n        id\n        name\n      }\n      runId\n      quote\n      at\n      confirmedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MemoryItem($id: ID!) {\n    memoryItem(id: $id) {\n      ...MemoryItemFields\n    }\n  }\n"): (typeof documents)["\n  query MemoryItem($id: ID!) {\n    memoryItem(id: $id) {\n      ...MemoryItemFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditMemory($input: EditMemoryInput!) {\n    editMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation EditMemory($input: EditMemoryInput!) {\n    editMemory(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MemoryItems($scope: ScopeInput!, $kind: MemoryKind, $kinds: [MemoryKind!], $search: String, $first: Int, $after: String) {\n    memoryItems(scope: $scope, status: ACTIVE, kind: $kind, kinds: $kinds, search: $search, first: $first, after: $after) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...MemoryItemFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query MemoryItems($scope: ScopeInput!, $kind: MemoryKind, $kinds: [MemoryKind!], $search: String, $first: Int, $after: String) {\n    memoryItems(scope: $scope, status: ACTIVE, kind: $kind, kinds: $kinds, search: $search, first: $first, after: $after) {\n      totalCount\n      edges {\n        cursor\n        node {\n          ...MemoryItemFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MemoryChanged($scope: ScopeInput!) {\n    memoryChanged(scope: $scope) {\n      scope\n      itemId\n      revision\n      action\n      status\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription MemoryChanged($scope: ScopeInput!) {\n    memoryChanged(scope: $scope) {\n      scope\n      itemId\n      revision\n      action\n      status\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AIStatus {\n    aiStatus {\n      embeddings\n      embeddingModel\n      embeddingDimensions\n      embeddingHost\n      embedded\n      embeddable\n      extraction\n      extractionModel\n      extractionHost\n      requestsToday\n      dailyRequestLimit\n    }\n  }\n"): (typeof documents)["\n  query AIStatus {\n    aiStatus {\n      embeddings\n      embeddingModel\n      embeddingDimensions\n      embeddingHost\n      embedded\n      embeddable\n      extraction\n      extractionModel\n      extractionHost\n      requestsToday\n      dailyRequestLimit\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AboutYouWaiting {\n    memoryItems(scope: { teammateId: null }, status: CANDIDATE, first: 1) {\n      totalCount\n    }\n  }\n"): (typeof documents)["\n  query AboutYouWaiting {\n    memoryItems(scope: { teammateId: null }, status: CANDIDATE, first: 1) {\n      totalCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Backups {\n    backups {\n      enabled\n      intervalSeconds\n      keep\n      count\n      totalBytes\n      last {\n        name\n        createdAt\n        bytes\n        migration\n      }\n    }\n  }\n"): (typeof documents)["\n  query Backups {\n    backups {\n      enabled\n      intervalSeconds\n      keep\n      count\n      totalBytes\n      last {\n        name\n        createdAt\n        bytes\n        migration\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConfirmCandidate($input: ConfirmCandidateInput!) {\n    confirmCandidate(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConfirmCandidate($input: ConfirmCandidateInput!) {\n    confirmCandidate(input: $input) {\n      item {\n        ...MemoryItemFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DismissCandidate($input: DismissCandidateInput!) {\n    dismissCandidate(input: $input) {\n      item {\n        id\n        scope\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation DismissCandidate($input: DismissCandidateInput!) {\n    dismissCandidate(input: $input) {\n      item {\n        id\n        scope\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CandidateFields on MemoryItem {\n    ...MemoryItemFields\n    evidence\n    waitReason\n    targetItemId\n    targetRevision\n    proposesForget\n    sourceRunId\n    timesSuggested\n    sourceTeammate {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  fragment CandidateFields on MemoryItem {\n    ...MemoryItemFields\n    evidence\n    waitReason\n    targetItemId\n    targetRevision\n    proposesForget\n    sourceRunId\n    timesSuggested\n    sourceTeammate {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Candidates($scope: ScopeInput!, $first: Int, $after: String) {\n    memoryItems(scope: $scope, status: CANDIDATE, first: $first, after: $after) {\n      totalCount\n      edges {\n        node {\n          ...CandidateFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): (typeof documents)["\n  query Candidates($scope: ScopeInput!, $first: Int, $after: String) {\n    memoryItems(scope: $scope, status: CANDIDATE, first: $first, after: $after) {\n      totalCount\n      edges {\n        node {\n          ...CandidateFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConfirmCandidates($input: CandidatesInput!) {\n    confirmCandidates(input: $input) {\n      items {\n        id\n        status\n        revision\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation ConfirmCandidates($input: CandidatesInput!) {\n    confirmCandidates(input: $input) {\n      items {\n        id\n        status\n        revision\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DismissCandidates($input: CandidatesInput!) {\n    dismissCandidates(input: $input) {\n      items {\n        id\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation DismissCandidates($input: CandidatesInput!) {\n    dismissCandidates(input: $input) {\n      items {\n        id\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UndoDismissCandidate($input: UndoDismissCandidateInput!) {\n    undoDismissCandidate(input: $input) {\n      item {\n        id\n        scope\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UndoDismissCandidate($input: UndoDismissCandidateInput!) {\n    undoDismissCandidate(input: $input) {\n      item {\n        id\n        scope\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UndoConfirmCandidates($input: UndoConfirmCandidatesInput!) {\n    undoConfirmCandidates(input: $input) {\n      items {\n        id\n        scope\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UndoConfirmCandidates($input: UndoConfirmCandidatesInput!) {\n    undoConfirmCandidates(input: $input) {\n      items {\n        id\n        scope\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TeammateStart($scope: ScopeInput!, $teammateId: ID!) {\n    memoryItems(scope: $scope, first: 1) {\n      totalCount\n    }\n    runs(teammateId: $teammateId, first: 1) {\n      id\n    }\n  }\n"): (typeof documents)["\n  query TeammateStart($scope: ScopeInput!, $teammateId: ID!) {\n    memoryItems(scope: $scope, first: 1) {\n      totalCount\n    }\n    runs(teammateId: $teammateId, first: 1) {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TeammateActivity($id: ID!) {\n    teammate(id: $id) {\n      id\n      name\n      activity {\n        memories\n        suggestions\n        lastConversationAt\n      }\n    }\n  }\n"): (typeof documents)["\n  query TeammateActivity($id: ID!) {\n    teammate(id: $id) {\n      id\n      name\n      activity {\n        memories\n        suggestions\n        lastConversationAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteTeammate($input: DeleteTeammateInput!) {\n    deleteTeammate(input: $input) {\n      teammateId\n      forgottenItems\n      deletedRuns\n      deletedThreads\n      deletedMessages\n    }\n  }\n"): (typeof documents)["\n  mutation DeleteTeammate($input: DeleteTeammateInput!) {\n    deleteTeammate(input: $input) {\n      teammateId\n      forgottenItems\n      deletedRuns\n      deletedThreads\n      deletedMessages\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchMemory($search: String!) {\n    searchMemory(search: $search, first: 50) {\n      ...MemoryItemFields\n      teammate {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  query SearchMemory($search: String!) {\n    searchMemory(search: $search, first: 50) {\n      ...MemoryItemFields\n      teammate {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetMemorySwitch($input: SetMemorySwitchInput!) {\n    setMemorySwitch(input: $input) {\n      teammate {\n        id\n        useMemory\n        saveMemory\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SetMemorySwitch($input: SetMemorySwitchInput!) {\n    setMemorySwitch(input: $input) {\n      teammate {\n        id\n        useMemory\n        saveMemory\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Teammate($id: ID!) {\n    teammate(id: $id) {\n      id\n      name\n      createdAt\n      generation\n      useMemory\n      saveMemory\n    }\n  }\n"): (typeof documents)["\n  query Teammate($id: ID!) {\n    teammate(id: $id) {\n      id\n      name\n      createdAt\n      generation\n      useMemory\n      saveMemory\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RenameTeammate($input: RenameTeammateInput!) {\n    renameTeammate(input: $input) {\n      teammate {\n        id\n        name\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RenameTeammate($input: RenameTeammateInput!) {\n    renameTeammate(input: $input) {\n      teammate {\n        id\n        name\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription GenerationChanged($teammateId: ID!) {\n    generationChanged(teammateId: $teammateId) {\n      teammateId\n      generation\n    }\n  }\n"): (typeof documents)["\n  subscription GenerationChanged($teammateId: ID!) {\n    generationChanged(teammateId: $teammateId) {\n      teammateId\n      generation\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TeammateRow on Teammate {\n    id\n    name\n    createdAt\n    useMemory\n    saveMemory\n    activity {\n      memories\n      suggestions\n      lastConversationAt\n      lastActivityAt\n    }\n  }\n"): (typeof documents)["\n  fragment TeammateRow on Teammate {\n    id\n    name\n    createdAt\n    useMemory\n    saveMemory\n    activity {\n      memories\n      suggestions\n      lastConversationAt\n      lastActivityAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Teammates {\n    teammates {\n      ...TeammateRow\n    }\n  }\n"): (typeof documents)["\n  query Teammates {\n    teammates {\n      ...TeammateRow\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateTeammate($input: CreateTeammateInput!) {\n    createTeammate(input: $input) {\n      teammate {\n        ...TeammateRow\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateTeammate($input: CreateTeammateInput!) {\n    createTeammate(input: $input) {\n      teammate {\n        ...TeammateRow\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TeammatesChanged {\n    teammatesChanged {\n      teammateId\n      change\n      teammate {\n        ...TeammateRow\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription TeammatesChanged {\n    teammatesChanged {\n      teammateId\n      change\n      teammate {\n        ...TeammateRow\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BackupsEnabled {\n    backups {\n      enabled\n    }\n  }\n"): (typeof documents)["\n  query BackupsEnabled {\n    backups {\n      enabled\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveDemo {\n    removeDemo {\n      teammates {\n        teammateId\n        forgottenItems\n        deletedMessages\n      }\n      forgottenSharedItems\n    }\n  }\n"): (typeof documents)["\n  mutation RemoveDemo {\n    removeDemo {\n      teammates {\n        teammateId\n        forgottenItems\n        deletedMessages\n      }\n      forgottenSharedItems\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;
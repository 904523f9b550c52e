package memory

import "context"

// A preview's two lists, read side by side.
//
// A recall with vectors spends most of its time in two independent searches: the full-text list and
// the vector list. One statement runs them one after the other on one connection, after the request
// was embedded (prepareRecall: the words counted, the AI budget reserved, the endpoint asked). A
// preview outside any transaction (previewPacket) may instead read the full-text list on a second
// connection from the moment it starts, while the request is embedded and its vector list read, and
// fuse the two lists in Go (packet.Fuse, as always): the full-text list's time leaves the request's,
// unless it is the longer of the two. docs/PERFORMANCE.md has the measurements.
//
// The second connection must be granted: a caller that bounds how many connections its requests
// hold (the API's heavy slots, half of its pool) grants one through WithSpareConnection, and without
// a grant, or with none left, the preview is read as before, by one statement. A connection is never
// held while another is waited for, so two connections a preview can't deadlock a pool.
//
// What the two statements see: each what was committed when it started (read committed, as the
// preview's batch always was), the full-text list's first. An item changed in between may be in
// both lists at two revisions; its entry shows the later one (mergeLists). An item forgotten,
// expired or suggested in between may be in the full-text list only, as if the preview had been
// made a moment earlier, before the change. A run's packet (StartRun) is read in its transaction,
// by one statement, in one snapshot, as G4 requires; so is a user's preview with what it left out.

// spareKey carries WithSpareConnection's grant.
type spareKey struct{}

// WithSpareConnection lets a preview made with ctx use a second connection of the pool at once,
// when take grants one: take returns ok and a function that gives it back, or false when none may
// be used now. It must not block.
func WithSpareConnection(ctx context.Context, take func() (release func(), ok bool)) context.Context {
	return context.WithValue(ctx, spareKey{}, take)
}

// spareConnection asks ctx's grant for a second connection.
func spareConnection(ctx context.Context) (release func(), ok bool) {
	take, _ := ctx.Value(spareKey{}).(func() (func(), bool))
	if take == nil {
		return nil, false
	}
	return take()
}

// previewPacket is the packet of teammateID's preview of request, outside any transaction: by one
// statement (prepareRecall, then buildPacketOnce), or, with an embedder and a spare connection
// granted, by its two lists side by side (see above). The packets are the same when nothing changes
// meanwhile (TestPreviewListsApartMatchOneStatement). The caller has parsed teammateID and checked
// that its credential reaches the teammate.
func (s *Service) previewPacket(ctx context.Context, teammateID, request string) (Packet, error) {
	release, ok := func() (func(), bool) {
		if _, semantic := s.embedder.(semanticRecall); !semantic {
			return nil, false
		}
		return spareConnection(ctx)
	}()
	if !ok {
		q, err := s.prepareRecall(ctx, teammateID, request)
		if err != nil {
			return Packet{}, err
		}
		return s.buildPacketOnce(ctx, teammateID, q)
	}
	type lists struct {
		pre        recallPrepared
		candidates []PacketEntry
		err        error
	}
	ftCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	fullText := make(chan lists, 1)
	go func() {
		var l lists
		l.pre, l.candidates, l.err = s.sendLists(ftCtx, s.pool, teammateID, false, qRecallFullTextList, []any{teammateID, requestWords(request)})
		release() // before the preview can return
		fullText <- l
	}()
	q, err := s.prepareRecall(ctx, teammateID, request)
	var ft lists
	read := false
	if s.hooks.betweenPreviewLists != nil && err == nil {
		ft, read = <-fullText, true
		s.hooks.betweenPreviewLists()
	}
	var vector lists
	if err == nil && q.vector.State == VectorUsed {
		_, query, args := s.vectorStatements(teammateID, q)
		vector.pre, vector.candidates, err = s.sendLists(ctx, s.pool, teammateID, true, query, args)
	}
	if err != nil {
		cancel()
	}
	if !read {
		ft = <-fullText
	}
	switch {
	case err != nil:
		return Packet{}, err
	case ft.err != nil:
		return Packet{}, ft.err
	}
	pre := ft.pre
	if q.vector.State == VectorUsed {
		// Both statements must find the teammate, and its memory on.
		pre.exists = pre.exists && vector.pre.exists
		pre.useMemory = pre.useMemory && vector.pre.useMemory
	}
	return packetOf(q, pre, mergeLists(ft.candidates, vector.candidates))
}

// mergeLists is recall's candidates from the full-text list's (fullText) and the vector list's
// (vector), read by two statements: an item in both gets its places in each, and its later
// revision (the two statements may have seen it before and after an edit).
func mergeLists(fullText, vector []PacketEntry) []PacketEntry {
	out := append(make([]PacketEntry, 0, len(fullText)+len(vector)), fullText...)
	at := make(map[string]int, len(fullText))
	for i, c := range fullText {
		at[c.Item.ID] = i
	}
	for _, v := range vector {
		i, ok := at[v.Item.ID]
		if !ok {
			out = append(out, v)
			continue
		}
		c := &out[i]
		c.VectorPos, c.VectorDistance = v.VectorPos, v.VectorDistance
		if v.Item.Revision > c.Item.Revision {
			c.Item = v.Item
		}
	}
	return out
}

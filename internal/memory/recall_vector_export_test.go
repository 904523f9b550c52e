package memory

// WithVectorExactLimit replaces VectorExactLimit for a service built WithSemanticRecall (give it
// after that option); -1 makes every 1,536-dimension search use the index.
func WithVectorExactLimit(n int) Option {
	return func(s *Service) {
		if semantic, ok := s.embedder.(semanticRecall); ok {
			semantic.exactLimit = n
			s.embedder = semantic
		}
	}
}

// QVectorListIndexed is the vector list's statement through the index, for the tests that read
// its plan.
const QVectorListIndexed = qVectorListIndexed

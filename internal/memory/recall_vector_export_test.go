package memory

// WithVectorSketchLimit replaces VectorSketchLimit for a service built WithSemanticRecall (give it
// after that option); -1 makes every 1,536-dimension search use the index.
func WithVectorSketchLimit(n int) Option {
	return func(s *Service) {
		if semantic, ok := s.embedder.(semanticRecall); ok {
			semantic.sketchLimit = n
			s.embedder = semantic
		}
	}
}

// QVectorListIndexed is the vector list's statement through the index, for the tests that read
// its plan.
const QVectorListIndexed = qVectorListIndexed

// QVectorListSketch is the vector list's statement by the sketch scan, for the tests that read its
// plan.
const QVectorListSketch = qVectorListSketch

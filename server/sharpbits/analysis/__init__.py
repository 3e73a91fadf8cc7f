"""Static analysis: the shared module model, the rules, and the engine that runs them."""

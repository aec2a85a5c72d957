# The manual (docs/*.md, README.md): every command it shows is run and its
# shown output compared (tests/docs/run.sh; the conventions are in
# docs/development.md). A page with no command is fine.
.PHONY: docs-test
docs-test: $(BIN)
	bash tests/docs/run.sh ./$(BIN)

CHECKS += docs-test

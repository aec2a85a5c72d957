# Variant pages as they read (src/rules/page.c, page_guess.c; server/howto.c):
# the four seed pages imported and served by a real `topochess serve`.
.PHONY: pages-test
pages-test: $(BIN)
	bash tests/server/pages.sh ./$(BIN)
CHECKS += pages-test

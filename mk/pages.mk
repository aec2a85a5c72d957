# Variant pages written in the browser (games/page_store.c, textdiff.c;
# server/pages_flow.c, admin.c; docs/variant-pages.md): make test runs the
# pages suite on SQLite; pages-pg-test runs it again on a throwaway
# PostgreSQL cluster.
.PHONY: pages-pg-test
pages-pg-test: $(B)/run_tests
	tools/with-postgres ./$(B)/run_tests pages
CHECKS += pages-pg-test

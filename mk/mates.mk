# The mate suite's data: tools/mategen.c writes tests/data/mates.epd from the
# solved endings and played games, each position checked by two exact
# solvers (tests/matesolve.c on the library's and on refgen's moves). The
# suite itself (tests/test_mates.c) runs in `make test`.
.PHONY: mates-data
$(B)/mategen: tools/mategen.c tests/matesolve.c tests/refgen.c tests/matesolve.h tests/refgen.h $(B)/libtopochess.a
	$(CC) $(WARN) $(OPT) $(CFLAGS) $(CPPFLAGS) -Itests -o $@ tools/mategen.c tests/matesolve.c tests/refgen.c $(B)/libtopochess.a $(LDLIBS)

mates-data: $(B)/mategen
	nice -n 19 ./$(B)/mategen tests/data/mates.epd $(MATES_SEED)

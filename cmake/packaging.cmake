# `cmake --install` and CPack's .deb: the binary (templates compiled in), its man page and its bash completion.
# Nothing else is installed: the binary reads no file beside it.
include(GNUInstallDirs)

# Debian compresses man pages; -n keeps the date out of the gzip header, so the .deb is the same for the same input.
# In man/man1 of the build folder, which is where man-db looks for pages of the programs in a folder on PATH
# (manpath(1): DIR/man beside DIR): with build/ on PATH, `man headcount` shows the page without installing it.
find_program(GZIP_EXECUTABLE gzip REQUIRED)
set(headcount_man_page ${CMAKE_BINARY_DIR}/man/man1/headcount.1.gz)
add_custom_command(
  OUTPUT ${headcount_man_page}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man/man1
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/doc/headcount.1 ${CMAKE_BINARY_DIR}/man/man1/headcount.1
  COMMAND ${GZIP_EXECUTABLE} -9nf ${CMAKE_BINARY_DIR}/man/man1/headcount.1
  DEPENDS ${CMAKE_SOURCE_DIR}/doc/headcount.1
  COMMENT "Compressing the man page")
add_custom_target(headcount_man ALL DEPENDS ${headcount_man_page})

install(TARGETS headcount RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(HEADCOUNT_SERVE) # `headcount serve` runs it from ../libexec/headcount
  install(TARGETS headcount-serve RUNTIME DESTINATION ${CMAKE_INSTALL_LIBEXECDIR}/headcount)
endif()
install(FILES ${headcount_man_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${CMAKE_SOURCE_DIR}/completions/headcount.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME headcount)
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
# `cmake --install` and cpack install what is built; they do not build the whole tree (tests included) first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME headcount)
set(CPACK_PACKAGE_VENDOR "headcount")
set(CPACK_PACKAGE_CONTACT "headcount maintainers <headcount@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "solve, grade and vary transformer-arithmetic homework exactly")
set(CPACK_PACKAGE_DESCRIPTION
    "headcount reads homework problems about transformer arithmetic (parameters, shapes, FLOPs, memory)
written as YAML specs, solves them exactly, writes worked solutions, grades answers naming the mistake
behind a wrong number, and generates a reproducible variant of each problem for every student.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION education)
# dpkg-shlibdeps names the shared libraries headcount-serve links. The headcount program itself is static
# (HEADCOUNT_STATIC): its copies of Nettle, zlib, yaml-cpp, utf8proc and cmark-gfm are those of the build machine,
# so a security update of one of them needs a rebuild of this package.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# HTML output reads KaTeX from Debian's folder at run time (src/render/katex.cpp): a dependency no linker sees.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libjs-katex")
include(CPack)

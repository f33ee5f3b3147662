# One static library per layer (DESIGN.md section 2). A layer links only the layers below it, so
# a wrong include fails to link. Sources are globbed so that adding a file needs no CMake edit;
# files ending in _test.cc go to the layer's test binary instead of the library.
# DEPS are the layer's public dependencies: its headers include them, so code that includes the
# layer's headers needs them too. PRIVATE_DEPS are libraries only its sources include (no header
# of the layer does): a layer above does not get them, so its code cannot start including them
# without saying so. The include path stays PUBLIC: every layer's headers are found from src/,
# one root shared by all layers, so an include path cannot tell one layer from another; which
# layer may include which is checked by scripts/check_layers.py instead.
# The one translation unit that knows the source path (src/testdata/testdata_dir.h): tests and
# benchmarks link it, so their own objects do not depend on where the checkout lives.
function(lws_testdata_library)
  if(TARGET lws_testdata)
    return()
  endif()
  add_library(lws_testdata STATIC ${PROJECT_SOURCE_DIR}/src/testdata/testdata_dir.cc)
  target_include_directories(lws_testdata PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_compile_definitions(lws_testdata PRIVATE LWS_TESTDATA_DIR="${PROJECT_SOURCE_DIR}/testdata")
endfunction()

function(lws_layer name)
  cmake_parse_arguments(ARG "" "EXCLUDE" "DEPS;PRIVATE_DEPS;TEST_DEPS;EXTRA_SOURCES" ${ARGN})
  file(GLOB _all CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  if(ARG_EXCLUDE)
    # Files the folder builds into another target (see src/apiserver/CMakeLists.txt).
    list(FILTER _all EXCLUDE REGEX "${ARG_EXCLUDE}")
  endif()
  set(_lib_sources)
  set(_test_sources)
  foreach(f ${_all})
    if(f MATCHES "_test\\.cc$")
      list(APPEND _test_sources ${f})
    else()
      list(APPEND _lib_sources ${f})
    endif()
  endforeach()
  if(_lib_sources OR ARG_EXTRA_SOURCES)
    add_library(lws_${name} STATIC ${_lib_sources} ${ARG_EXTRA_SOURCES})
    target_include_directories(lws_${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(lws_${name} PUBLIC ${ARG_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  else()
    # A layer whose first sources have not landed yet: headers only.
    add_library(lws_${name} INTERFACE)
    target_include_directories(lws_${name} INTERFACE ${PROJECT_SOURCE_DIR}/src)
    target_link_libraries(lws_${name} INTERFACE ${ARG_DEPS})
  endif()
  if(LWS_BUILD_TESTS AND _test_sources AND NOT LWS_BUILD_FUZZ)
    lws_testdata_library()
    add_executable(${name}_test ${_test_sources})
    target_link_libraries(${name}_test PRIVATE lws_${name} ${ARG_TEST_DEPS} lws_testdata
                          GTest::gtest GTest::gmock GTest::gtest_main rapidcheck rapidcheck_gtest)
    include(GoogleTest)
    gtest_discover_tests(${name}_test PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
  endif()
endfunction()

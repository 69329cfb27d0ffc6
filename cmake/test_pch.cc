// The translation unit that builds the tests' precompiled header
// (cmake/VyreTest.cmake); it has nothing of its own.

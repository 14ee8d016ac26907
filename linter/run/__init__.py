"""Running over many files: discovery (paths, excludes, `.gitignore`), the process pool and the
project index shared by workers (`runner`), and the on-disk cache (`cache`).
"""

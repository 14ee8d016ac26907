"""Graph, search, vector and key-value stores: what a tool indexes, merges, puts or deletes there
outlives the run. Searches, gets and MATCH-only Cypher read.

neo4j: `session.run(query)` and `driver.execute_query(query)` write when the Cypher text has a
write clause (`check="cypher"`); a query siblint cannot read is not assumed to write, as SQL is
not. `execute_write` / `write_transaction` run a managed write transaction whatever is inside.
chromadb: only the clients that keep data (`PersistentClient`, `HttpClient`, `CloudClient`);
`chromadb.Client()` is in memory, gone with the process, like a scratch folder.
"""

from __future__ import annotations

from .rows import Row, anys, calls, methods

_NEO4J = ("neo4j.GraphDatabase.driver neo4j.GraphDatabase.bolt_driver neo4j.GraphDatabase.neo4j_driver "
          "neo4j.AsyncGraphDatabase.driver")
_SEARCH = ("elasticsearch.Elasticsearch opensearchpy.OpenSearch")
_ASYNC_SEARCH = ("elasticsearch.AsyncElasticsearch opensearchpy.AsyncOpenSearch")
_SEARCH_VERBS = "index create delete update bulk delete_by_query update_by_query reindex put_mapping put_settings"
_CHROMA = "chromadb.PersistentClient chromadb.HttpClient chromadb.CloudClient"
_AEROSPIKE_VERBS = ("put operate remove append prepend increment remove_bin touch batch_write batch_operate "
                    "batch_remove truncate")

_QDRANT_VERBS = ("upsert delete create_collection recreate_collection delete_collection update_collection set_payload "
                 "overwrite_payload delete_payload clear_payload upload_points upload_collection update_vectors "
                 "delete_vectors batch_update_points")

_LANGCHAIN_SERVED_STORES = (
    "langchain_community.vectorstores.Neo4jVector langchain_neo4j.Neo4jVector langchain_community.vectorstores.PGVector "
    "langchain_postgres.PGVector langchain_pinecone.PineconeVectorStore langchain_community.vectorstores.Pinecone "
    "langchain_qdrant.QdrantVectorStore langchain_community.vectorstores.Qdrant langchain_milvus.Milvus "
    "langchain_community.vectorstores.Milvus langchain_weaviate.WeaviateVectorStore "
    "langchain_elasticsearch.ElasticsearchStore langchain_mongodb.MongoDBAtlasVectorSearch "
    "langchain_community.vectorstores.SupabaseVectorStore langchain_community.vectorstores.Redis "
    "langchain_redis.RedisVectorStore langchain_community.vectorstores.AzureSearch "
    "langchain_community.vectorstores.OpenSearchVectorSearch"
)

REDIS_SYNC = "redis.Redis redis.StrictRedis redis.from_url redis.Redis.from_url redis.client.Redis"
REDIS_ASYNC = ("redis.asyncio.Redis redis.asyncio.from_url redis.asyncio.Redis.from_url redis.asyncio.StrictRedis "
               "redis.createClient @redis/client.createClient ioredis ioredis.default ioredis.Redis "
               "@upstash/redis.Redis @upstash/redis.Redis.fromEnv @upstash/redis/cloudflare.Redis")
# The commands that change a key, in redis-py's and the JS clients' spellings (node-redis camelCases
# them: `hSet`, `json.set` of RedisJSON).
REDIS_WRITES = ("set setex setnx psetex mset msetnx getset getdel getex hset hsetnx hmset hdel hincrby hincrbyfloat del delete "
                "unlink expire expireat pexpire pexpireat persist rename renamenx copy incr incrby incrbyfloat decr "
                "decrby append lpush rpush lpushx rpushx lpop rpop lrem lset ltrim linsert lmove blmove rpoplpush "
                "sadd srem spop smove zadd zrem zincrby zpopmin zpopmax zremrangebyscore zremrangebyrank xadd xdel "
                "xtrim xack publish flushall flushdb "
                "setEx setNX pSetEx mSet mSetNX getSet getDel getEx hSet hSetNX hmSet hDel hIncrBy hIncrByFloat "
                "expireAt pExpire pExpireAt renameNX incrBy incrByFloat decrBy lPush rPush lPushX rPushX lPop rPop "
                "lRem lSet lTrim lInsert lMove rPopLPush sAdd sRem sPop sMove zAdd zRem zIncrBy zPopMin zPopMax "
                "zRemRangeByScore zRemRangeByRank xAdd xDel xTrim xAck flushAll flushDb arrAppend arrInsert arrPop "
                "arrTrim numIncrBy merge")

ROWS: tuple[Row, ...] = (
    *methods(_NEO4J, "run execute_query", "Cypher {method}", None, "graph", "cypher"),
    anys("execute_write write_transaction", "a graph write transaction ({name})", None, "graph"),
    *methods(_SEARCH, _SEARCH_VERBS, "{name} (search index)", True, "index"),
    *methods(_ASYNC_SEARCH, _SEARCH_VERBS, "{name} (search index)", False, "index"),
    *calls("elasticsearch.helpers.bulk elasticsearch.helpers.streaming_bulk elasticsearch.helpers.parallel_bulk "
           "opensearchpy.helpers.bulk", "{name} (search index)", True, "index"),
    *methods(_CHROMA, "add upsert update delete create_collection delete_collection reset", "{name} (vector store)",
             True, "vector"),
    *methods("chromadb.AsyncHttpClient", "add upsert update delete create_collection delete_collection reset",
             "{name} (vector store)", False, "vector"),
    # Pinecone (`pc.Index(name).upsert(...)`, the index made by its client) and Qdrant.
    *methods("pinecone.Pinecone pinecone.Index pinecone.grpc.PineconeGRPC",
             "upsert update delete upsert_from_dataframe create_index delete_index configure_index",
             "{name} (vector store)", True, "vector"),
    *methods("qdrant_client.QdrantClient", _QDRANT_VERBS, "{name} (vector store)", True, "vector"),
    *methods("qdrant_client.AsyncQdrantClient", _QDRANT_VERBS, "{name} (vector store)", False, "vector"),
    *methods("aerospike.client", _AEROSPIKE_VERBS, "{name} (key-value store)", True, "kv"),
    # Redis: redis-py's clients (sync and asyncio), node-redis and ioredis, Upstash. A write in a
    # helper named for a cache is bookkeeping (`siblint.effects.incidental`).
    *methods(REDIS_SYNC, REDIS_WRITES, "{name} (Redis write)", True, "kv"),
    *methods(REDIS_ASYNC, REDIS_WRITES, "{name} (Redis write)", False, "kv"),
    # LangChain's vector stores kept by a database or a service: adding or deleting documents writes
    # there (Chroma, FAISS and the in-memory stores keep theirs in the process until saved).
    *methods(" ".join(f"{cls}{made}" for cls in _LANGCHAIN_SERVED_STORES.split()
                      for made in ("", ".from_texts", ".from_documents", ".from_existing_index")),
             "add_texts add_documents aadd_texts aadd_documents add_embeddings delete adelete", "{name} (vector store)",
             None, "vector"),
    # LangChain's local vector stores keep their index in memory until saved to a folder.
    *methods(" ".join(f"{cls}{made}" for cls in ("langchain_community.vectorstores.FAISS",
                                                 "langchain_community.vectorstores.faiss.FAISS")
                      for made in ("", ".load_local", ".from_texts", ".from_documents", ".from_embeddings")),
             "save_local", "{name} (vector store saved to disk)", True, "vector"),
    # ... and langchain-core's in-memory store until dumped to a file.
    *methods(" ".join(f"{cls}{made}" for cls in ("langchain_core.vectorstores.InMemoryVectorStore",
                                                 "langchain_core.vectorstores.in_memory.InMemoryVectorStore")
                      for made in ("", ".load", ".from_texts", ".from_documents")),
             "dump", "{name} (vector store saved to disk)", True, "vector"),
)

# Cypher clauses that write. A prompt that starts with "Create ..." is no Cypher: each needs the
# pattern syntax that follows the clause (a node or a property).
CYPHER_WRITES = (
    ("CREATE", r"\bCREATE\s+(?:UNIQUE\s+)?\("),
    ("MERGE", r"\bMERGE\s+\("),
    ("DELETE", r"\b(?:DETACH\s+)?DELETE\s+[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*(?:$|RETURN|WITH|;)"),
    ("SET", r"\bSET\s+[A-Za-z_]\w*(?:\.\w+\s*[+]?=|\s*[+]?=|:)"),
    ("REMOVE", r"\bREMOVE\s+[A-Za-z_]\w*[.:]"),
    ("DROP", r"\bDROP\s+(?:INDEX|CONSTRAINT)\b"),
)
